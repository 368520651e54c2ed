import crypto from 'node:crypto';

/**
 * The token that follows `token` in its family: an HMAC under the server's key, so every server
 * process derives the same one and nobody without the key can, and only hashes are stored.
 */
export type RefreshSuccessor = (token: string) => string;

export function refreshSuccessor(secret: string): RefreshSuccessor {
  const key = crypto.createHmac('sha256', secret).update('saljportalen refresh successor').digest();
  return (token) => crypto.createHmac('sha256', key).update(token).digest('base64url');
}
