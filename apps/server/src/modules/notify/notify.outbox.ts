import { createHash } from 'node:crypto';
import { type PushChannel, pushChannels } from '@fbox/contracts';
import type { Insertable, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AlertTransition } from '../alarm/alarm.engine.js';
import type { NotifyRepository, Recipient } from './notify.repository.js';
import type { NotificationsTable } from './notify.schema.js';

const parse = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const on = (value: unknown) => value === 1 || value === '1' || value === true;

/** A recipient's addresses of a channel when it is checked in their push form. */
export const addressesOf = (
  recipient: Pick<Recipient, `${PushChannel}_send`>,
  channel: PushChannel,
  checkedOnly = true,
) => {
  const send = parse(recipient[`${channel}_send`]);
  if (checkedOnly && !on(send.status)) return [];
  const values = Array.isArray(send.value) ? send.value : [];
  return [
    ...new Set(
      values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()),
    ),
  ];
};

/**
 * Rows of one group go out as one message: the same rule on the same FBOX changing the same way,
 * for the same recipient on the same channel and address (a hash: addresses may be long URLs).
 */
export const groupKey = (
  alert: AlertTransition['alert'],
  kind: string,
  userId: number,
  channel: string,
  address: string,
) =>
  createHash('sha256')
    .update(JSON.stringify([alert.rule_id, alert.fbox_id, kind, userId, channel, address]))
    .digest('hex')
    .slice(0, 40);

/**
 * The outbox rows of an alert transition, written in its transaction: one per recipient who sees the
 * mine and chose the alert's level, per checked channel the server is configured for, per address.
 * Each is due after the grouping delay, so alerts of one rule on one FBOX that fire together are
 * merged into one message. Returns how many rows were written (0: nothing to send).
 */
export const writeOutbox = async (
  repo: NotifyRepository,
  trx: Transaction<DB>,
  transition: AlertTransition,
  configured: ReadonlySet<PushChannel>,
  groupMs: number,
): Promise<number> => {
  const { alert, kind, at } = transition;
  // A silenced rule records its alert without pushing; an alert a person closed (rule changed or
  // deleted, device removed) is no news to push either.
  if (transition.silenced || kind === 'closed') return 0;
  const rows: Insertable<NotificationsTable>[] = [];
  for (const recipient of await repo.recipients(trx, alert.area_id)) {
    if (!on(parse(recipient.alert_send_level)[String(alert.level)])) continue;
    for (const channel of pushChannels) {
      if (!configured.has(channel)) continue;
      for (const address of addressesOf(recipient, channel)) {
        rows.push({
          alert_id: alert.id,
          area_id: alert.area_id,
          user_id: recipient.id,
          kind,
          channel,
          address,
          group_key: groupKey(alert, kind, recipient.id, channel, address),
          status: 'pending',
          attempts: 0,
          next_attempt_at: at + groupMs,
          leased_until: 0,
          created_at: at,
        });
      }
    }
  }
  if (rows.length > 0) await repo.insert(trx, rows);
  return rows.length;
};
