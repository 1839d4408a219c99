import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import './agent-fbox.schema.js';

/** Kysely queries for agent registrations (`agent_fboxes`) and what they check. */
export class AgentFboxRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The mine's name and master (operation log), or undefined for an unknown mine. */
  mine(areaId: number) {
    return this.db
      .selectFrom('areas')
      .select(['area_name', 'owner_id'])
      .where('id', '=', areaId)
      .executeTakeFirst();
  }

  /** The box registered for an agent, with its sealed MQTT account and the mine it is in now. */
  linked(areaId: number, clientId: string) {
    return this.db
      .selectFrom('agent_fboxes')
      .innerJoin('fboxes', 'fboxes.id', 'agent_fboxes.fbox_id')
      .select([
        'fboxes.id',
        'fboxes.area_id',
        'fboxes.device_id',
        'fboxes.mqtt_username',
        'fboxes.mqtt_password',
      ])
      .where('agent_fboxes.area_id', '=', areaId)
      .where('agent_fboxes.client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Records the agent's box; false when another registration of the same agent came first. */
  async link(areaId: number, clientId: string, fboxId: number, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('agent_fboxes')
      .values({ area_id: areaId, client_id: clientId, fbox_id: fboxId, created_at: now })
      .onConflict((oc) => oc.columns(['area_id', 'client_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Forgets a link whose box left the mine (moved to another one). */
  async unlink(areaId: number, clientId: string): Promise<void> {
    await this.db
      .deleteFrom('agent_fboxes')
      .where('area_id', '=', areaId)
      .where('client_id', '=', clientId)
      .execute();
  }

  /** Boxes agents registered in the mine that are still there. */
  async count(areaId: number): Promise<number> {
    const row = await this.db
      .selectFrom('agent_fboxes')
      .innerJoin('fboxes', 'fboxes.id', 'agent_fboxes.fbox_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agent_fboxes.area_id', '=', areaId)
      .where('fboxes.area_id', '=', areaId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether an administrator revoked the gateway key (Manage Mines) and has not issued a new one since. */
  async gatewayRevoked(areaId: number, username: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('mqtt_clients')
      .select('id')
      .where('area_id', '=', areaId)
      .where('client_key', '=', username)
      .where('revoked_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }
}
