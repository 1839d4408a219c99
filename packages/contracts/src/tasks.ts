/** Miner groups (`minerGroup`), reboot tasks (`taskReboot`) and temperature mode tasks (`taskTemp`). */
export const taskEndpoints = {} as const;
