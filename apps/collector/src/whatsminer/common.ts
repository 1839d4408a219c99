import type { ApiObject } from '../cgminer/parse.js';
import { num } from '../cgminer/parse.js';

/**
 * What the v2 and v3 readings share: the model name, the error codes and what they mean for the
 * `fault` field. Error codes follow MicroBT's "Error List" (apidoc.whatsminer.com, also in the
 * v2.0.5 document's `get_error_code`): 110–131 are the intake/outlet fans (not detected, or off
 * their target speed), 500–599 the hash boards (slot not found, chip id / chip count errors,
 * bad chips, lost balance). Power (2xx), temperature (3xx, 6xx) and pool (2010+) codes are not
 * `chain` or `fan` and leave the fault empty.
 */

export const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
export const max = (values: number[]) => (values.length ? Math.max(...values) : null);
export const mean = (values: number[]) =>
  values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
export const sum = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) : null);

/** The numbers of `key` over `items`, those that are readings (> 0: the firmware writes 0 for none). */
export const positives = (items: ApiObject[], key: string): number[] =>
  items.map((item) => num(item[key])).filter((value): value is number => value !== null && value > 0);

/** An object field, or {} when absent or not an object. */
export const objectAt = (value: unknown, key: string): ApiObject => {
  const field = typeof value === 'object' && value !== null ? (value as ApiObject)[key] : undefined;
  return typeof field === 'object' && field !== null && !Array.isArray(field) ? (field as ApiObject) : {};
};

/** Objects of an array field; [] when absent. */
export const objectsAt = (value: unknown, key: string): ApiObject[] => {
  const field = typeof value === 'object' && value !== null ? (value as ApiObject)[key] : undefined;
  return Array.isArray(field)
    ? field.filter((item): item is ApiObject => typeof item === 'object' && item !== null)
    : [];
};

/**
 * The model as MicroBT names it for sale: `M30S++_VH70` → `M30S++`, `M31SV10` → `M31S`,
 * `M50S_VH84` → `M50S`, `WhatsMiner M56S` → `M56S`. The hash-board variant after it is dropped.
 */
export const modelName = (type: string): string => {
  const cleaned = type.replace(/^whatsminer\s*/i, '').trim();
  const match = /^([MT]\d+[A-Za-z]*?\+*)(?:_|V[A-Z]?\d|$)/.exec(cleaned);
  return match?.[1] ?? cleaned;
};

/**
 * Error codes from an error list as the firmwares write it: `[{"531":"2025-03-12 14:52:35",
 * "reason":"Slot1 not found."}]` (v3, v2 `get_error_code`), `["110", 530]`, or `{"110": "…"}`.
 */
export const errorCodes = (list: unknown): number[] => {
  const items = Array.isArray(list) ? list : typeof list === 'object' && list !== null ? [list] : [];
  const codes: number[] = [];
  for (const item of items) {
    if (typeof item === 'number' || typeof item === 'string') {
      const code = num(item);
      if (code !== null) codes.push(code);
    } else if (typeof item === 'object' && item !== null) {
      for (const key of Object.keys(item)) if (/^\d+$/.test(key)) codes.push(Number(key));
    }
  }
  return codes;
};

/** A hash board as the fault check sees it. */
export interface BoardState {
  /** Chips that answer; null when not reported. */
  chips: number | null;
  /** TH/s; null when not reported. */
  hashrate: number | null;
}

const WARM_UP_S = 600;

/**
 * `chain` when an error code names a hash board, or, past warm-up (10 min, while boards are still
 * initialising), a board has no working chip or hashes nothing; `fan` when an error code names a fan or one fan stands while
 * another turns (both at 0 is a liquid-cooled or immersion miner, not a fault); else ''.
 */
export const faultOf = (codes: number[], boards: BoardState[], fans: number[], uptimeS: number | null) => {
  const warm = (uptimeS ?? 0) > WARM_UP_S;
  const deadBoard = warm && boards.some((board) => board.chips === 0 || board.hashrate === 0);
  if (codes.some((code) => code >= 500 && code < 600) || deadBoard) return 'chain';
  const stopped = fans.some((rpm) => rpm === 0) && fans.some((rpm) => rpm > 0);
  if (codes.some((code) => code >= 110 && code <= 131) || stopped) return 'fan';
  return '';
};
