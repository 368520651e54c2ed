import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) at OWASP's recommended cost: 19 MiB, 2 passes.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, options);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a password nobody has, verified when the e-mail is unknown so that a failed
 * sign-in takes the same time whether or not the account exists.
 */
let dummyHash: Promise<string> | undefined;
export function verifyAgainstDummy(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('dummy-password-for-timing-equality');
  return dummyHash.then((h) => verifyPassword(h, password)).then(() => false);
}
