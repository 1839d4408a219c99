import { Code } from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB, FboxKind } from '../db/schema.js';
import { ApiError } from '../lib/api-error.js';
import type { Clock } from '../lib/clock.js';
import type { SecretBox } from '../lib/secret-box.js';
import { DeviceRepository, type FboxIdentity } from './device.repository.js';
import { newDeviceId, newMqttCredentials, newMqttPassword, passwordMatches } from './fbox-credentials.js';

/** What creating an FBOX needs; device id and MQTT credentials are generated. */
export interface CreateFboxInput {
  name: string;
  number?: string;
  kind: FboxKind;
  ip_range?: string;
  voltage_min?: number;
  voltage_max?: number;
  /** Seconds between telemetry messages; silence for 3 of them marks the box offline. Default 30. */
  reporting_interval_s?: number;
  /** JSON-serialisable box settings (thresholds, delay switch…). */
  settings?: Record<string, unknown>;
  collectors?: { no: 1 | 2; mac?: string; account?: string; password?: string }[];
  meters?: { no: 1 | 2; meter_number?: string; sensor_ratio?: number }[];
  /** Creates tanks 1…n named `Tank <no>` (immersion boxes); more appear from telemetry. */
  tanks?: number;
}

export interface CreatedFbox {
  id: number;
  area_id: number;
  device_id: string;
  mqtt_username: string;
  mqtt_password: string;
}

/** Devices gone from their mine: a whole box (its tanks and miners too), or tanks or miners. */
export type RemovedDevices =
  | { fboxId: number }
  | { areaId: number; kind: 'tank' | 'miner'; ids: readonly number[] };
export type RemovedListener = (removed: RemovedDevices) => Promise<void>;

/** How long a device-id lookup is trusted: boxes change rarely and another process may create them. */
const identityTtlMs = 30_000;

/**
 * FBOX accounts: creation with generated MQTT credentials, password regeneration, and the lookups
 * the broker (authentication) and ingest (device id → box) make on every connection and message.
 * Scope checks (may this user touch this area?) belong to the HTTP services calling it.
 */
export class DeviceService {
  private readonly identities = new Map<string, { fbox: FboxIdentity | undefined; at: number }>();
  /** Bumped by every `forget`: a lookup that started before it must not re-cache what it read. */
  private generation = 0;
  /** Closes a device's live MQTT sessions (embedded broker only); set by the MQTT plugin. */
  private sessionCloser: ((deviceId: string) => number) | null = null;
  private readonly removedListeners: RemovedListener[] = [];

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    /** MQTT and collector passwords are stored sealed (encrypted at rest). */
    private readonly secrets: SecretBox,
  ) {}

  /** Adds work to every removal of devices from their mine (the alarm center closes their alerts). */
  onRemoved(listener: RemovedListener): void {
    this.removedListeners.push(listener);
  }

  /**
   * Announces devices gone from their mine, after the change committed: a box deleted or moved to
   * another mine (with its tanks and miners), or tanks or miners deleted.
   */
  async removed(removed: RemovedDevices): Promise<void> {
    for (const listener of this.removedListeners) await listener(removed);
  }

  async createFbox(areaId: number, input: CreateFboxInput): Promise<CreatedFbox> {
    const deviceId = newDeviceId();
    const credentials = newMqttCredentials(deviceId);
    const now = this.clock();
    return this.db.transaction().execute(async (trx) => {
      const repo = new DeviceRepository(trx);
      const id = await repo.insertFbox({
        area_id: areaId,
        name: input.name,
        number: input.number ?? '',
        kind: input.kind,
        ip_range: input.ip_range ?? '',
        voltage_min: input.voltage_min ?? 342,
        voltage_max: input.voltage_max ?? 418,
        device_id: deviceId,
        mqtt_username: credentials.username,
        mqtt_password: this.secrets.seal(credentials.password),
        reporting_interval_s: input.reporting_interval_s ?? 30,
        settings: JSON.stringify(input.settings ?? {}),
        now,
      });
      const collectors = input.collectors ?? [{ no: 1 }, { no: 2 }];
      await repo.insertCollectors(
        id,
        collectors.map((c) => ({
          no: c.no,
          mac: c.mac ?? '',
          account: c.account ?? '',
          // '' means none stored, and stays readable as such.
          password: c.password ? this.secrets.seal(c.password) : '',
        })),
      );
      const meters = input.meters ?? [{ no: 1 }, { no: 2 }];
      await repo.insertMeters(
        id,
        meters.map((m) => ({
          no: m.no,
          meter_number: m.meter_number ?? '',
          sensor_ratio: m.sensor_ratio ?? 1,
        })),
      );
      for (let no = 1; no <= (input.tanks ?? 0); no++) {
        await repo.ensureTank({ id, area_id: areaId }, no, `Tank ${no}`, now);
      }
      return {
        id,
        area_id: areaId,
        device_id: deviceId,
        mqtt_username: credentials.username,
        mqtt_password: credentials.password,
      };
    });
  }

  /**
   * New random MQTT password for the box. On the embedded broker the gateway's open sessions are
   * closed at once, so the old password stops working now (it must reconnect with the new one); an
   * external broker checks credentials itself, so there the change is up to its own auth setup.
   * @throws ApiError NOT_FOUND for an unknown box.
   */
  async regenerateMqttPassword(fboxId: number): Promise<{ mqtt_username: string; mqtt_password: string }> {
    const password = newMqttPassword();
    const repo = new DeviceRepository(this.db);
    if (!(await repo.setPassword(fboxId, this.secrets.seal(password), this.clock()))) {
      throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    }
    const row = await repo.loginOf(fboxId);
    this.revoke(row.device_id);
    return { mqtt_username: row.mqtt_username, mqtt_password: password };
  }

  /**
   * Drops the cached identity of a device, so the next message is resolved from the database (its
   * box moved to another area, was deleted, or changed credentials). Only this process's cache:
   * another server process trusts its copy for up to `identityTtlMs`.
   */
  forget(deviceId: string): void {
    this.generation++;
    this.identities.delete(deviceId);
  }

  /** `forget`, and closes the device's live sessions on the embedded broker; returns how many. */
  revoke(deviceId: string): number {
    this.forget(deviceId);
    return this.sessionCloser?.(deviceId) ?? 0;
  }

  /** How the service closes a device's MQTT sessions (the embedded broker); null detaches it. */
  setSessionCloser(closer: ((deviceId: string) => number) | null): void {
    this.sessionCloser = closer;
  }

  /** The device id a gateway may use when its credentials match, else null. */
  async authenticate(username: string, password: string): Promise<string | null> {
    const row = await new DeviceRepository(this.db).findCredentials(username);
    if (!row || !passwordMatches(this.secrets.open(row.mqtt_password), password)) return null;
    return row.device_id;
  }

  /** The box behind a topic's device id (cached briefly; ingest calls this per message). */
  async findByDeviceId(deviceId: string): Promise<FboxIdentity | undefined> {
    const now = Date.now();
    const cached = this.identities.get(deviceId);
    if (cached && now - cached.at < identityTtlMs) return cached.fbox;
    const generation = this.generation;
    const fbox = await new DeviceRepository(this.db).findByDeviceId(deviceId);
    // A `forget` while the query ran may concern this device: use the answer, do not keep it.
    if (generation !== this.generation) return fbox;
    if (this.identities.size > 100_000) this.identities.clear();
    this.identities.set(deviceId, { fbox, at: now });
    return fbox;
  }

  findFbox(fboxId: number): Promise<FboxIdentity | undefined> {
    return new DeviceRepository(this.db).findFbox(fboxId);
  }

  /** FBOXes of an area with their credentials (demo simulator, bench). */
  async listWithCredentials(areaId: number) {
    const rows = await new DeviceRepository(this.db).listWithCredentials(areaId);
    return rows.map((r) => ({ ...r, mqtt_password: this.secrets.open(r.mqtt_password) }));
  }
}
