/** Mines (Manage Mines), client key records, observer links (`fbox.pool`) and mining-pool subaccounts (`admin/area/pool`). */
export const mineEndpoints = {} as const;
