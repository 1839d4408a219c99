/**
 * What other parts of the app use from the alarm feature: its query keys (live updates), the open
 * count, the colours of the alert levels.
 */
export { alarmKeys, useOpenAlertCount } from './api';
export { levelColors } from './levels';
