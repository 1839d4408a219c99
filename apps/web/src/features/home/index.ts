/** What other parts of the app use from Home: its query keys (live updates). */
export { homeKeys } from './api';
