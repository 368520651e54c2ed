import crypto from 'node:crypto';

/** Shopify's X-Shopify-Hmac-Sha256: base64 of HMAC-SHA256 over the exact bytes of the body. */
export function signShopifyWebhook(body: Buffer | string, secret: string): string {
  return crypto.createHmac('sha256', secret).update(body).digest('base64');
}

/** Compares in constant time, so the answer time tells nothing about how much of a forgery matched. */
export function isValidShopifySignature(body: Buffer, signature: string | undefined, secret: string): boolean {
  if (!signature) return false;
  const expected = crypto.createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
