/** FBOX default settings per mine (`admin/area/config`) and one FBOX's effective configuration. */
export const fboxConfigEndpoints = {} as const;
