/** What other parts of the app use from the device feature: its query keys (live updates). */

/** Links to device pages, FBOX choices and fault words, for screens about devices (alerts). */
export { useFboxOptions } from './api-fbox';
export { useFaultText } from './components/labels';
export { commandKeys, fboxKeys, minerKeys, tankKeys } from './keys';
export { fboxDetailPath, minerDetailPath, tankDetailPath } from './use-id-param';
