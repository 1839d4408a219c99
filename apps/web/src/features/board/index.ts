/** What other parts of the app use from the boards: their query keys (live updates). */
export { boardKeys } from './api';
