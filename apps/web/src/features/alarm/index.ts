/** What other parts of the app use from the alarm feature: its query keys (live updates), the open count. */
export { alarmKeys, useOpenAlertCount } from './api';
