import crypto from 'node:crypto';

/**
 * Letters and digits that cannot be mistaken for one another when read aloud or typed on a
 * phone: no 0/O, 1/I/L, and no U/V pair (spec issue: group codes).
 */
export const UNAMBIGUOUS_ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';

export function randomCode(length: number, alphabet = UNAMBIGUOUS_ALPHABET): string {
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[crypto.randomInt(alphabet.length)];
  return code;
}

/** A secret for a link or cookie: 32 random bytes, URL-safe. */
export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** Secrets are stored only as their SHA-256, so a database leak reveals no usable token. */
export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
