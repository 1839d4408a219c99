/** What other parts of the app use from the device feature: its query keys (live updates). */
export { commandKeys, fboxKeys, minerKeys, tankKeys } from './keys';
