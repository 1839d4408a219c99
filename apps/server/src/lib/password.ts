import argon2 from 'argon2';

/** Argon2id at the OWASP minimum (19 MiB, 2 passes): DESIGN §9. */
export const passwordCost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
let cost: { memoryCost: number; timeCost: number; parallelism: number } = passwordCost;

/**
 * For the server test suites only (their setup file): hashes at Argon2's smallest cost, so the
 * thousands of accounts the tests create and sign in do not each spend ~70 ms of CPU. A hash
 * carries its own parameters, so verification works either way; nothing else calls this.
 */
export const useCheapPasswordHashingForTests = (): void => {
  cost = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
};

export const hashPassword = (password: string, at = cost): Promise<string> =>
  argon2.hash(password, { type: argon2.argon2id, ...at });

export const verifyPassword = async (hash: string, password: string): Promise<boolean> => {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
};

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification, for unknown usernames, so response timing does not
 * tell which accounts exist.
 */
export const dummyVerify = async (password: string): Promise<false> => {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
};
