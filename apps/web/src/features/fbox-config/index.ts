/** What other parts of the app use from the FBOX configuration feature. */
export { fboxConfigKeys } from './keys';
export { OverclockPolicyNote } from './OverclockPolicyNote';
