import type { MinerProtocol } from '../protocol.js';
import type { AntminerWeb } from './client.js';

/** The write commands an Antminer read over the CGMiner API gets from its web CGI. */
export type AntminerWebActions = Required<Pick<MinerProtocol, 'reboot' | 'setMode' | 'setPool'>>;

/**
 * `reboot`, `setMode` and `setPool` with `MinerProtocol`'s signatures, done over the web CGI. Only
 * `endpoint.host` is used: the endpoint's port is the CGMiner API's (4028), the web port is
 * `web`'s own. `high` is the firmware's normal mode, `low` its low-power mode.
 */
export const antminerWebActions = (web: AntminerWeb): AntminerWebActions => ({
  reboot: (endpoint) => web.reboot(endpoint.host),
  setMode: (endpoint, mode) => web.setWorkMode(endpoint.host, mode === 'high' ? 'normal' : 'lowPower'),
  setPool: (endpoint, pool) => web.setFirstPool(endpoint.host, pool),
});
