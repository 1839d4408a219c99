import { Code, type Endpoint, type EndpointName, type SharedMessageKey } from '@fbox/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/api-error.js';
import { fieldLabel, ruleOf } from '../../lib/field-errors.js';
import type { SessionUser } from '../auth/auth.service.js';
import { maskParams, targetOf } from './oplog.params.js';

/** What the HTTP adapter knows of a call once it has been answered. */
export interface AnsweredCall {
  name: EndpointName;
  endpoint: Endpoint;
  request: FastifyRequest;
  /** The signed-in caller; null for login and for calls refused before a session was found. */
  user: SessionUser | null;
  /** The validated input; undefined when validation failed (the raw input is recorded then). */
  input: unknown;
  /** What the call threw; null on success. */
  failure: unknown;
}

type Outcome = { code: number; key: SharedMessageKey; params: Record<string, string | number> };

const outcomeOf = (endpoint: Endpoint, failure: unknown): Outcome => {
  if (failure === null) return { code: Code.OK, key: endpoint.success ?? 'api.ok', params: {} };
  if (failure instanceof ApiError)
    return { code: failure.code, key: failure.messageKey, params: failure.params ?? {} };
  const issues = (failure as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues) && issues[0]) {
    const issue = issues[0];
    const broken = ruleOf(issue);
    return {
      code: Code.VALIDATION,
      key: 'api.validation',
      params: { ...broken.params, field: fieldLabel(issue.path), rule: broken.key },
    };
  }
  return { code: Code.SERVER_ERROR, key: 'api.serverError', params: {} };
};

const rawInput = (request: FastifyRequest, endpoint: Endpoint): unknown =>
  endpoint.method === 'GET' ? request.query : request.body;

/**
 * Records an answered state-changing call (the adapter calls it for every recorded endpoint, see
 * contracts `isRecordedEndpoint`). A call without a session is recorded only for login (a failed
 * login of a known user shows in that account's log). Recording never breaks the request: a
 * failure to write is logged and the answer goes out as it would have.
 */
export const recordCall = async (app: FastifyInstance, call: AnsweredCall): Promise<void> => {
  try {
    const { name, endpoint, request, failure } = call;
    const input = call.input ?? rawInput(request, endpoint) ?? {};
    let who: { user_id: number | null; username: string; master_id: number | null };
    if (call.user) {
      who = { user_id: call.user.id, username: call.user.username, master_id: call.user.masterId };
    } else if (name === 'login') {
      const typed = (input as { username?: unknown }).username;
      const username = typeof typed === 'string' ? typed.trim().slice(0, 50) : '';
      const known = username ? await app.oplog.findLoginUser(username) : undefined;
      who = known
        ? {
            user_id: known.id,
            username: known.username,
            master_id: known.is_master === 1 ? known.id : known.parent_id,
          }
        : { user_id: null, username, master_id: null };
    } else {
      return;
    }
    const outcome = outcomeOf(endpoint, failure);
    const area = call.user?.area ?? null;
    await app.oplog.record({
      at: app.clock(),
      ...who,
      ip: request.ip?.slice(0, 64) ?? null,
      area_id: area?.id ?? null,
      area_name: area?.area_name ?? null,
      action: name,
      path: endpoint.path,
      target: targetOf(input),
      params: JSON.stringify(maskParams(input)),
      code: outcome.code,
      message_key: outcome.key,
      message_params: JSON.stringify(outcome.params),
    });
  } catch (error) {
    call.request.log.error({ err: error, endpoint: call.name }, 'operation log: recording failed');
  }
};
