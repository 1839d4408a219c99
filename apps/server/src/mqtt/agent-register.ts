import {
  type AgentRegister,
  type AgentRegistered,
  AgentRegisterSchema,
  agentRegisterLimits,
  agentRegisterTopics,
  parseRuleMessage,
  type SharedMessageKey,
  translate,
} from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock.js';
import type { AgentRegisterHandler, MqttTransport } from './transport.js';

/** Registers an agent's FBOX (the FBOX module's AgentRegistrationService). */
export interface Registrar {
  /** Whether the mine exists here: a request for another mine is not this server's to answer. */
  knowsMine(areaId: number): Promise<boolean>;
  register(
    areaId: number,
    clientId: string,
    request: AgentRegister,
    ip: string | null,
  ): Promise<AgentRegistered>;
}

const minuteMs = 60_000;
/** Mines tracked at most; beyond it the oldest are forgotten. */
const maxMines = 10_000;

/**
 * Registration requests per mine (an Agent Key) in the last minute. In memory, per server process:
 * with N processes behind a shared subscription a key gets at most N times the limit.
 */
export class RegisterThrottle {
  private readonly requests = new Map<number, number[]>();

  constructor(private readonly clock: Clock) {}

  /** Counts a request of the mine; false when it is over the limit. */
  take(areaId: number): boolean {
    const now = this.clock();
    const recent = (this.requests.get(areaId) ?? []).filter((at) => now - at < minuteMs);
    const allowed = recent.length < agentRegisterLimits.perMinute;
    if (allowed) recent.push(now);
    this.requests.delete(areaId);
    this.requests.set(areaId, recent);
    if (this.requests.size > maxMines) this.requests.delete(this.requests.keys().next().value!);
    return allowed;
  }
}

/** The first problem of a request, in English, with the field at fault. */
const problemOf = (payload: Buffer): { error: string; field?: string } | AgentRegister => {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { error: 'not JSON: send {"name": "...", "kind": "air"}' };
  }
  const parsed = AgentRegisterSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const { key, params } = parseRuleMessage(issue.message);
  // Rule messages are i18n keys (the FBOX form's); zod's own (a non-object payload) are English.
  const text = key.startsWith('rule.') ? translate('en', key as SharedMessageKey, params) : issue.message;
  return field ? { error: `${field}: ${text}`, field } : { error: text };
};

/**
 * The MQTT side of agent registration (docs/mqtt.md, "Registering with the Agent Key"): counts the
 * request against its mine's limit, validates it with the contract, has the FBOX module register it
 * and answers on the agent's own `registered` topic, QoS 1, not retained — the only place the
 * password goes. Logs name the mine, the agent and the box, never the password. Never rejects: a
 * request that cannot be served now is answered `ok: false` so the agent does not wait for nothing.
 * A database failure while checking the mine rejects (the transport logs it; the agent times out).
 */
export const agentRegisterHandler = (deps: {
  publish: MqttTransport['publish'];
  registrar: Registrar;
  clock: Clock;
  log: FastifyBaseLogger;
}): AgentRegisterHandler => {
  const throttle = new RegisterThrottle(deps.clock);
  return async (areaId, clientId, payload, ip) => {
    // Only an external broker can deliver one (the embedded one admits agents of known mines only):
    // a mine deleted since, or another deployment's on a shared broker. Silence, not a refusal.
    if (!(await deps.registrar.knowsMine(areaId))) {
      deps.log.warn({ areaId, clientId }, 'agent registration for an unknown mine ignored');
      return;
    }
    let answer: AgentRegistered;
    const request = throttle.take(areaId) ? problemOf(payload) : null;
    if (request === null) {
      answer = { ok: false, error: 'too many registrations for this mine: try again in a minute' };
    } else if ('error' in request) {
      answer = { ok: false, ...request };
    } else {
      try {
        answer = await deps.registrar.register(areaId, clientId, request, ip);
      } catch (error) {
        deps.log.error({ err: error, areaId, clientId }, 'agent registration failed');
        answer = { ok: false, error: 'the cloud could not register the agent now: try again later' };
      }
    }
    if (answer.ok) deps.log.info({ areaId, clientId, deviceId: answer.device_id }, 'agent registered');
    else deps.log.warn({ areaId, clientId, error: answer.error }, 'agent registration refused');
    try {
      await deps.publish(agentRegisterTopics.registered(areaId, clientId), JSON.stringify(answer), {
        qos: 1,
      });
    } catch (error) {
      deps.log.warn({ err: error, areaId, clientId }, 'agent registration answer not sent');
    }
  };
};
