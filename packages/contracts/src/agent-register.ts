import { z } from 'zod';
import { FboxKindSchema } from './devices.js';
import { requiredText } from './rules.js';

/**
 * Registration of a site agent as an FBOX gateway (docs/mqtt.md, "Registering with the Agent Key").
 * An agent logged in with its mine's Agent Key subscribes to `agent/<areaId>/<clientId>/registered`,
 * then publishes `agent/<areaId>/<clientId>/register` (QoS 1, not retained); the cloud creates an FBOX
 * in the mine — or finds the one it created for that client id before — and answers on `registered`
 * (QoS 1, not retained) with its device id and MQTT account.
 */
export const agentRegisterTopics = {
  register: (areaId: number, clientId: string) => `agent/${areaId}/${clientId}/register`,
  registered: (areaId: number, clientId: string) => `agent/${areaId}/${clientId}/registered`,
} as const;

/** `agent/<areaId>/<clientId>/register` or `…/registered` → its parts, or null for any other topic. */
export const parseAgentRegisterTopic = (
  topic: string,
): { areaId: number; clientId: string; what: 'register' | 'registered' } | null => {
  const match = /^agent\/([1-9]\d{0,15})\/([A-Za-z0-9_-]{1,64})\/(register|registered)$/.exec(topic);
  if (!match) return null;
  return { areaId: Number(match[1]), clientId: match[2]!, what: match[3] as 'register' | 'registered' };
};

/** What an agent asks for: the name of its FBOX (as the FBOX form takes it) and its kind. */
export const AgentRegisterSchema = z.object({
  name: requiredText(50),
  kind: FboxKindSchema,
});
export type AgentRegister = z.infer<typeof AgentRegisterSchema>;

/**
 * The cloud's answer: the FBOX's device id and current MQTT account, or why not (`field` names the
 * request field at fault, when one is). The password goes only to the asking agent's own topic.
 */
export const AgentRegisteredSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    device_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    username: z.string().min(1),
    password: z.string().min(1),
  }),
  z.object({ ok: z.literal(false), error: z.string(), field: z.string().optional() }),
]);
export type AgentRegistered = z.infer<typeof AgentRegisteredSchema>;

/** Bounds on registrations, so a leaked Agent Key cannot flood a mine with boxes. */
export const agentRegisterLimits = {
  /** Registration requests per mine (per Agent Key) and minute, answered or not. */
  perMinute: 10,
  /** FBOXes agents may have created in one mine (one per client id; deleted ones do not count). */
  fboxesPerMine: 200,
} as const;
