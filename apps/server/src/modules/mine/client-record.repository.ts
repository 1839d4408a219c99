import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Which record: a mine, a client key and a client id ('' when the broker does not tell). */
export interface ClientKey {
  area_id: number;
  client_key: string;
  client_id: string;
}

/** What a sighting of a client writes; fields left out keep their stored value. */
export interface ClientSighting extends ClientKey {
  kind: 'gateway' | 'agent';
  fbox_id: number | null;
  ip?: string;
  computer_name?: string;
  version?: string;
  online?: boolean;
}

const recordColumns = [
  'mqtt_clients.id',
  'mqtt_clients.kind',
  'mqtt_clients.client_key',
  'mqtt_clients.client_id',
  'mqtt_clients.ip',
  'mqtt_clients.computer_name',
  'mqtt_clients.version',
  'mqtt_clients.fbox_id',
  'mqtt_clients.online',
  'mqtt_clients.first_seen_at',
  'mqtt_clients.last_seen_at',
  'mqtt_clients.revoked_at',
] as const;

/** Kysely queries for client key records (`mqtt_clients`). */
export class ClientRecordRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The sealed Agent Key of a mine (null when it has none), undefined for an unknown mine. */
  async agentKeyOf(areaId: number): Promise<string | null | undefined> {
    const area = await this.db
      .selectFrom('areas')
      .select('agent_key')
      .where('id', '=', areaId)
      .executeTakeFirst();
    return area?.agent_key;
  }

  /** The gateway account of an FBOX by its device id (external broker sightings). */
  gatewayOf(deviceId: string) {
    return this.db
      .selectFrom('fboxes')
      .select(['id', 'area_id', 'mqtt_username'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
  }

  /**
   * Inserts the record or updates the fields the sighting carries, and its last-seen time. Written as
   * an update-then-insert so both dialects share it; the unique index settles a race of two writers.
   */
  async upsert(sighting: ClientSighting, now: number): Promise<void> {
    const changes = {
      last_seen_at: now,
      ...(sighting.fbox_id !== null && { fbox_id: sighting.fbox_id }),
      ...(sighting.ip !== undefined && { ip: sighting.ip }),
      ...(sighting.computer_name !== undefined && { computer_name: sighting.computer_name }),
      ...(sighting.version !== undefined && { version: sighting.version }),
      ...(sighting.online !== undefined && { online: sighting.online ? 1 : 0 }),
    };
    const updated = await this.db
      .updateTable('mqtt_clients')
      .set(changes)
      .where('area_id', '=', sighting.area_id)
      .where('client_key', '=', sighting.client_key)
      .where('client_id', '=', sighting.client_id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    await this.db
      .insertInto('mqtt_clients')
      .values({
        area_id: sighting.area_id,
        kind: sighting.kind,
        client_key: sighting.client_key,
        client_id: sighting.client_id,
        fbox_id: sighting.fbox_id,
        ip: sighting.ip ?? '',
        computer_name: sighting.computer_name ?? '',
        version: sighting.version ?? '',
        online: sighting.online ? 1 : 0,
        first_seen_at: now,
        last_seen_at: now,
      })
      .onConflict((oc) => oc.columns(['area_id', 'client_key', 'client_id']).doUpdateSet(changes))
      .execute();
  }

  async isRevoked(key: ClientKey): Promise<boolean> {
    const row = await this.db
      .selectFrom('mqtt_clients')
      .select('revoked_at')
      .where('area_id', '=', key.area_id)
      .where('client_key', '=', key.client_key)
      .where('client_id', '=', key.client_id)
      .executeTakeFirst();
    return row?.revoked_at != null;
  }

  /** Records of a mine, online ones first, then the most recently seen. */
  listByArea(areaId: number) {
    return this.db
      .selectFrom('mqtt_clients')
      .leftJoin('fboxes', 'fboxes.id', 'mqtt_clients.fbox_id')
      .select([...recordColumns, 'fboxes.name as fbox_name'])
      .where('mqtt_clients.area_id', '=', areaId)
      .orderBy('mqtt_clients.online', 'desc')
      .orderBy('mqtt_clients.last_seen_at', 'desc')
      .orderBy('mqtt_clients.id')
      .execute();
  }

  findInArea(areaId: number, id: number) {
    return this.db
      .selectFrom('mqtt_clients')
      .leftJoin('fboxes', 'fboxes.id', 'mqtt_clients.fbox_id')
      .select([...recordColumns, 'fboxes.name as fbox_name'])
      .where('mqtt_clients.area_id', '=', areaId)
      .where('mqtt_clients.id', '=', id)
      .executeTakeFirst();
  }

  /** Marks records revoked and offline: one agent record, or every record of a gateway's key. */
  async revoke(areaId: number, where: { id: number } | { client_key: string }, now: number): Promise<void> {
    let query = this.db
      .updateTable('mqtt_clients')
      .set({ revoked_at: now, online: 0 })
      .where('area_id', '=', areaId);
    query =
      'id' in where ? query.where('id', '=', where.id) : query.where('client_key', '=', where.client_key);
    await query.execute();
  }

  /** Lifts revocation: a gateway's key after new credentials, all agents of a mine after a new key. */
  async readmit(areaId: number, clientKey: string): Promise<void> {
    await this.db
      .updateTable('mqtt_clients')
      .set({ revoked_at: null })
      .where('area_id', '=', areaId)
      .where('client_key', '=', clientKey)
      .where('revoked_at', 'is not', null)
      .execute();
  }

  /**
   * An FBOX moved to another mine: its gateway's records go with it, so the old mine no longer
   * lists them. Records of it the new mine may hold from an earlier stay give way to the moved ones
   * (one record per mine, key and client id). They are marked offline: the move closes the
   * gateway's sessions, whose end is recorded under the old mine's key, which no longer matches.
   */
  async moveGateway(fboxId: number, toAreaId: number): Promise<void> {
    await this.db
      .deleteFrom('mqtt_clients')
      .where('kind', '=', 'gateway')
      .where('fbox_id', '=', fboxId)
      .where('area_id', '=', toAreaId)
      .execute();
    await this.db
      .updateTable('mqtt_clients')
      .set({ area_id: toAreaId, online: 0 })
      .where('kind', '=', 'gateway')
      .where('fbox_id', '=', fboxId)
      .execute();
  }

  /** A client's sessions ended: offline, seen until now. */
  async markOffline(key: ClientKey, now: number): Promise<void> {
    await this.db
      .updateTable('mqtt_clients')
      .set({ online: 0, last_seen_at: now })
      .where('area_id', '=', key.area_id)
      .where('client_key', '=', key.client_key)
      .where('client_id', '=', key.client_id)
      .execute();
  }

  /**
   * Every record offline, last seen unchanged: an embedded broker starts with no sessions, so what a
   * stopped process left online is not.
   */
  async markAllOffline(): Promise<void> {
    await this.db.updateTable('mqtt_clients').set({ online: 0 }).where('online', '=', 1).execute();
  }

  countByArea(areaId: number): Promise<number> {
    return this.db
      .selectFrom('mqtt_clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('area_id', '=', areaId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }
}
