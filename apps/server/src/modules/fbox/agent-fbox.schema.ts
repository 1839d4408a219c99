/** The FBOX a site agent registered as (migration 0032_agent_fboxes). Times are UTC epoch ms. */
export interface AgentFboxesTable {
  area_id: number;
  /** The agent's MQTT client id (`agent-<areaId>-<name>`). */
  client_id: string;
  fbox_id: number;
  created_at: number;
}

declare module '../../db/schema.js' {
  interface DB {
    agent_fboxes: AgentFboxesTable;
  }
}
