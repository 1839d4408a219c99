/** Tag colours of the alert levels: critical, major, minor. */
export const levelColors: Record<number, string> = { 1: 'red', 2: 'orange', 3: 'gold' };
