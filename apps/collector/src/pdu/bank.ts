import { KeyedQueue } from '../keyed-queue.js';
import { forEachLimited, sleep } from '../limit.js';
import { type Logger, silentLogger } from '../logger.js';
import type { CommandResult } from '../protocol.js';
import { outletRange, type PduConfig } from './config.js';
import { PduClient, SnmpError } from './snmp.js';
import type { OutletState } from './vendors.js';

/** What the cloud's `pdu.outlet` command asks for. */
export type OutletStatus = 'on' | 'off';

/** Where an FBOX-wide outlet number is: which PDU, and which of its outlets (1..outlets). */
export interface OutletLocation {
  pdu: PduConfig;
  port: number;
}

export interface OutletResult {
  outlet: number;
  result: CommandResult;
}

/** `setMany`'s outcome: ok when every outlet switched; `error` lists those that did not. */
export type SetManyResult = CommandResult & { results: OutletResult[] };

export interface PduBankOptions {
  logger?: Logger;
  /** Reads of a switched outlet before it counts as not switched (default 4): relays take a moment. */
  verifyReads?: number;
  /** ms between those reads (default 250). */
  verifyIntervalMs?: number;
  /** PDUs read at once by `readStates` (default 16). */
  readConcurrency?: number;
}

/**
 * All configured PDUs as one row of FBOX-wide outlets. A switch is confirmed by reading the
 * outlet back, since a PDU may accept a SET and not act on it (an outlet locked, a relay that
 * stuck). Writes to one PDU are queued: two SETs never reach a PDU at once, however many
 * commands the cloud sends together; reads are not queued.
 */
export class PduBank {
  private readonly clients: PduClient[];
  private readonly log: Logger;
  private readonly verifyReads: number;
  private readonly verifyIntervalMs: number;
  private readonly readConcurrency: number;
  private readonly writes = new KeyedQueue<PduClient>();
  /** Why each unreadable PDU failed last, so the log says it once, not every cycle. */
  private readonly readFailures = new Map<string, string>();

  constructor(pdus: readonly PduConfig[], options: PduBankOptions = {}) {
    this.clients = [...pdus].sort((a, b) => a.first_outlet - b.first_outlet).map((pdu) => new PduClient(pdu));
    this.log = options.logger ?? silentLogger;
    this.verifyReads = Math.max(1, options.verifyReads ?? 4);
    this.verifyIntervalMs = options.verifyIntervalMs ?? 250;
    this.readConcurrency = options.readConcurrency ?? 16;
  }

  get pdus(): PduConfig[] {
    return this.clients.map((client) => client.pdu);
  }

  /** The PDU and port of an FBOX-wide outlet number; null when no configured PDU has it. */
  locate(outlet: number): OutletLocation | null {
    const client = this.clientOf(outlet);
    return client ? { pdu: client.pdu, port: outlet - client.pdu.first_outlet + 1 } : null;
  }

  private clientOf(outlet: number): PduClient | undefined {
    return this.clients.find((client) => {
      const { first, last } = outletRange(client.pdu);
      return outlet >= first && outlet <= last;
    });
  }

  /**
   * Switches one outlet and reads it back. `error` names the outlet and says why: the PDU's
   * refusal (`noAccess` …), no answer in time, or a state that did not follow.
   */
  set(outlet: number, status: OutletStatus): Promise<CommandResult> {
    const client = this.clientOf(outlet);
    if (!client) return Promise.resolve({ ok: false, error: `outlet ${outlet} is on no configured PDU` });
    const port = outlet - client.pdu.first_outlet + 1;
    const fields = { outlet, pdu: client.pdu.name, port, status };
    return this.writes.run(client, async () => {
      try {
        await client.command(port, status);
      } catch (error) {
        const reason = (error as Error).message;
        // Over UDP a SET can be obeyed and its answer lost: if the outlet now reads as asked, it
        // switched (switching on or off twice does no harm, so the tries net-snmp sent are fine).
        const lost = error instanceof SnmpError && error.kind === 'timeout';
        if (lost && (await this.readsAs(client, port, status))) {
          this.log.info({ ...fields, reason }, 'outlet switched, its answer lost');
          return { ok: true };
        }
        this.log.warn({ ...fields, reason }, 'outlet not switched');
        return { ok: false, error: `outlet ${outlet}: ${reason}` };
      }
      const result = await this.verify(client, outlet, port, status);
      if (result.ok) this.log.info(fields, 'outlet switched');
      else this.log.warn({ ...fields, reason: result.error }, 'outlet not switched');
      return result;
    });
  }

  private async readsAs(client: PduClient, port: number, status: OutletStatus): Promise<boolean> {
    try {
      return (await client.readState(port)) === status;
    } catch {
      return false;
    }
  }

  private async verify(
    client: PduClient,
    outlet: number,
    port: number,
    status: OutletStatus,
  ): Promise<CommandResult> {
    let state: OutletState = 'unknown';
    let readError = '';
    for (let read = 0; read < this.verifyReads; read++) {
      if (read > 0) await sleep(this.verifyIntervalMs);
      try {
        state = await client.readState(port);
        readError = '';
      } catch (error) {
        readError = (error as Error).message;
        continue;
      }
      if (state === status) return { ok: true };
    }
    const at = `${client.where} outlet ${port}`;
    return {
      ok: false,
      error: readError
        ? `outlet ${outlet}: switched ${status}, but its state could not be read back: ${readError}`
        : `outlet ${outlet}: ${at} still reads ${state} after the command to switch ${status}`,
    };
  }

  /**
   * The FBOX's Delay Switch: switches `outlets` one after another, in the order given, waiting
   * `delayMs` after each before the next (so a row of miners does not start at once). An outlet
   * that fails does not stop the rest.
   */
  async setMany(outlets: readonly number[], status: OutletStatus, delayMs: number): Promise<SetManyResult> {
    const results: OutletResult[] = [];
    for (const [i, outlet] of outlets.entries()) {
      if (i > 0 && delayMs > 0) await sleep(delayMs);
      results.push({ outlet, result: await this.set(outlet, status) });
    }
    const failed = results.flatMap(({ result }) => (result.ok ? [] : [result.error]));
    return failed.length ? { ok: false, error: failed.join('; '), results } : { ok: true, results };
  }

  /**
   * Every configured outlet's state by FBOX-wide number, each PDU read at once (a few GETs, each
   * with the PDU's time-out); a PDU that does not answer gives `unknown` for all its outlets.
   */
  async readStates(): Promise<Map<number, OutletState>> {
    const states = new Map<number, OutletState>();
    await forEachLimited(this.clients, this.readConcurrency, async (client) => {
      const { first, last } = outletRange(client.pdu);
      let read: OutletState[] = [];
      try {
        read = await client.readStates();
        if (this.readFailures.delete(client.pdu.name))
          this.log.info({ pdu: client.pdu.name }, 'pdu answers again');
      } catch (error) {
        const reason = (error as Error).message;
        if (this.readFailures.get(client.pdu.name) !== reason)
          this.log.warn({ pdu: client.pdu.name, reason }, 'pdu not read');
        this.readFailures.set(client.pdu.name, reason);
      }
      for (let outlet = first; outlet <= last; outlet++)
        states.set(outlet, read[outlet - first] ?? 'unknown');
    });
    return new Map([...states].sort(([a], [b]) => a - b));
  }
}
