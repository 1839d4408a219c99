import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A device id for MQTT topics: `fb` + 12 random hex digits (matches the topic's `[A-Za-z0-9_-]`). */
export const newDeviceId = (): string => `fb${randomBytes(6).toString('hex')}`;

/** MQTT account of a gateway: the username is derived from its device id, the password is random. */
export const newMqttCredentials = (deviceId: string): { username: string; password: string } => ({
  username: `gw-${deviceId}`,
  password: newMqttPassword(),
});

/** 18 random bytes (144 bits) as base64url: typeable into a gateway's configuration page. */
export const newMqttPassword = (): string => randomBytes(18).toString('base64url');

/** Constant-time comparison so the broker does not leak how much of a password matched. */
export const passwordMatches = (expected: string, given: string): boolean => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};
