/** What other parts of the app use from alert push: the push dialog's parts and an alert's notifications. */
export { AlertNotifications } from './AlertNotifications';
export { recordNotifyLanguage, useNotifyChannels } from './api';
export { ChannelTest } from './ChannelTest';
