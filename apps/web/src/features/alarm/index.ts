/** What other parts of the app use from the alarm feature: its query keys (live updates). */
export { alarmKeys } from './api';
