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
 * The hash of a random password nobody knows, at the same cost as every stored hash. Verified
 * when the e-mail is unknown, so that a failed sign-in does the same work whether or not the
 * account exists; a constant, so that no first call pays for hashing it.
 */
export const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$/DxNazB7zdRSADop01kKNQ$NHzbdNC0DP179ZtRfLsk+LFYuiluurETNDjpEfQYFt0';

export const verifyAgainstDummy = (password: string): Promise<false> => verifyPassword(DUMMY_HASH, password).then(() => false);
