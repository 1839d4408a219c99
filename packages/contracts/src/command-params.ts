import { z } from 'zod';

/**
 * The `params` of the miner, PDU and box commands (`fbox/<deviceId>/cmd`, docs/mqtt.md), as every
 * gateway checks them: the simulator and the site collector refuse the same params for the same
 * reason.
 */

const OnOffParamSchema = z.enum(['on', 'off']);

/**
 * A pool address as miners take it: `stratum+tcp://host:port` (or `+ssl`/`+tls`, `stratum2+…`).
 * The console also takes a bare `host:port` (MinerPoolBodySchema): it reaches the gateway as typed
 * and is read as `stratum+tcp://host:port`.
 */
export const StratumAddressSchema = z
  .string()
  .trim()
  .max(256)
  .regex(
    /^(stratum[0-9]?\+(tcp|ssl|tls):\/\/)?[A-Za-z0-9.-]+:\d{1,5}(\/\S*)?$/,
    'expected stratum+tcp://host:port',
  )
  .transform((address) => (address.includes('://') ? address : `stratum+tcp://${address}`));

const WorkerParamSchema = z.string().trim().min(1).max(128);

/** `miner.mode`. */
export const MinerModeParamsSchema = z.object({ mode: z.enum(['high', 'low']) });

/**
 * `miner.pool`: the pool becomes the miner's first; the worker stays when none is given. The pool
 * password comes only when the user typed one (send-only, never stored by the cloud).
 */
export const MinerPoolParamsSchema = z.object({
  pool_address: StratumAddressSchema,
  worker: WorkerParamSchema.optional(),
  password: z.string().max(128).optional(),
});

/** `miner.resave_account`: writes the account again, either part replaced when given. */
export const MinerResaveParamsSchema = z.object({
  worker: WorkerParamSchema.optional(),
  pool_address: StratumAddressSchema.optional(),
});

/** `miner.overclock`: `enabled` (boolean) or the console's `status` (on/off), and the frequency bounds. */
export const MinerOverclockParamsSchema = z
  .object({
    enabled: z.boolean().optional(),
    status: OnOffParamSchema.optional(),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
  })
  .refine((p) => p.enabled !== undefined || p.status !== undefined, 'give enabled or status')
  .refine((p) => p.min === undefined || p.max === undefined || p.min <= p.max, 'min must not exceed max');

/** `pdu.outlet` (the outlet is `target.outlet`). */
export const PduOutletParamsSchema = z.object({ status: OnOffParamSchema });

/** `fbox.config`: the known settings are checked; other keys are the gateway's to take or refuse. */
export const FboxConfigParamsSchema = z
  .looseObject({
    voltage_min: z.number().finite().min(0).max(1000).optional(),
    voltage_max: z.number().finite().min(0).max(1000).optional(),
    temperature_max: z.number().finite().min(-40).max(150).optional(),
    humidity_max: z.number().finite().min(0).max(100).optional(),
    delay_switch_ms: z.number().int().min(0).max(10_000).optional(),
  })
  .refine(
    (p) => p.voltage_min === undefined || p.voltage_max === undefined || p.voltage_min < p.voltage_max,
    'voltage_min must be below voltage_max',
  );

/**
 * Checks a command's params: the parsed value, or the refusal a gateway acks with
 * (`invalid params: <key>: <reason>`).
 */
export const parseCommandParams = <T>(
  schema: z.ZodType<T>,
  params: unknown,
): { ok: true; value: T } | { ok: false; error: string } => {
  const result = schema.safeParse(params);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, error: `invalid params: ${where}${issue?.message ?? 'invalid'}` };
};
