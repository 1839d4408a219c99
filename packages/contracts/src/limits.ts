/** Business constants and validation limits of spec §5 and §9, shared by server, web and simulator. */
export const limits = {
  requestTimeoutMs: 120_000,
  tokenCookie: 'Admin-Token',
  languageCookie: 'language',
  usernameMax: 50,
  nicknameMax: 50,
  emailMax: 254,
  passwordMin: 8,
  /** Spec §5 keeps 8 as the minimum; 128 lets passphrases and password managers through (ASVS 2.1.2). */
  passwordMax: 128,
  taskNameMax: 50,
  hashrateConditionMin: 1,
  hashrateConditionMax: 1000,
  temperatureMin: 10,
  rebootCountMin: 1,
  voltageReferenceMin: 342,
  voltageReferenceMax: 418,
  maxPushEmails: 5,
  maxPushPhones: 5,
  maxPushTeams: 5,
  maxPushTelegram: 5,
  /** Gateway reporting interval, whole seconds (DESIGN §7): a box is offline after 3 silent intervals. */
  reportingIntervalMin: 5,
  reportingIntervalMax: 60,
  delaySwitchMin: 0,
  delaySwitchMax: 10_000,
  autoFrequencyMin: 0,
  autoFrequencyMax: 10_000,
  avatarMin: 1,
  avatarMax: 10,
  areaNameMax: 50,
  defaultElectricityHz: 50,
  percentLoadBase50Hz: 5000,
  percentLoadBase60Hz: 6000,
  mobileBreakpointPx: 992,
  toastMs: 2000,
  errorToastMs: 5000,
  /** -999 means "no data" everywhere (DESIGN §6). */
  noData: -999,
  /** Body size accepted by the HTTP server, bytes. */
  bodyLimitBytes: 1_048_576,
  /** One text field of a form: anything longer is refused before it reaches a service. */
  textFieldMax: 2000,
} as const;

/** Reboot interval options of spec §9, in seconds. */
export const intervalOptionsSeconds = [30, 60, 120, 300, 900, 1800, 3600, 7200] as const;

/** Settings drawer defaults of spec §9. */
export const layoutDefaults = {
  themeColor: '#1890ff',
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  showSettings: false,
  size: 'middle',
} as const;
