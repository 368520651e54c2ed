import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidShopifySignature, signShopifyWebhook } from './webhook-signature.js';

describe('Shopify webhook signature', () => {
  const body = Buffer.from('{"id":820982911946154508,"note":"hej åäö"}');

  it('is the base64 HMAC-SHA256 of the raw bytes, as Shopify documents it', () => {
    const expected = crypto.createHmac('sha256', 'hemlighet').update(body).digest('base64');
    expect(signShopifyWebhook(body, 'hemlighet')).toBe(expected);
    expect(isValidShopifySignature(body, expected, 'hemlighet')).toBe(true);
  });

  it('fails for another secret, a changed byte, a missing or malformed header', () => {
    const signature = signShopifyWebhook(body, 'hemlighet');
    const changed = Buffer.from(body);
    changed[5] = changed[5]! ^ 1;
    expect(isValidShopifySignature(body, signature, 'annan')).toBe(false);
    expect(isValidShopifySignature(changed, signature, 'hemlighet')).toBe(false);
    expect(isValidShopifySignature(body, undefined, 'hemlighet')).toBe(false);
    expect(isValidShopifySignature(body, 'kort', 'hemlighet')).toBe(false);
    expect(isValidShopifySignature(body, signature.slice(0, -4), 'hemlighet')).toBe(false);
  });
});
