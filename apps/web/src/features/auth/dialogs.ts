/** Account dialogs opened from the user menu (loaded with the layout, not with /login). */
export { AccountSettingsDialog } from './components/AccountSettingsDialog';
export { ChangePasswordDialog } from './components/ChangePasswordDialog';
export { PushSettingsDialog } from './components/PushSettingsDialog';
