/**
 * Shopify orders/create deliveries as Shopify sends them (Shopify's sample order made Swedish,
 * HMAC-signed, a fresh webhook id each), to random sellers' personal link codes, 50 at a time.
 * Figures: orders per second over the whole run, and how many of the orders exist afterwards.
 */
import crypto from 'node:crypto';
import autocannon, { type Request } from 'autocannon';
import { signShopifyWebhook } from '../apps/server/src/modules/shopify/webhook-signature.js';
import { swedishOrder } from '../apps/server/test/shopify-webhooks.js';
import { CONNECTIONS } from './load.js';

export interface WebhookFigures {
  deliveries: number;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** Orders of the run found in the database afterwards. */
  stored: number;
}

/** The link code bench/generate-data.ts gives member `i`. */
export const linkCodeOf = (member: number) => `BL${(member * 7919 + 100000).toString(16).toUpperCase()}`;

/** The bench's own Shopify order ids: far above the generated ones, so they can be counted and removed. */
export const WEBHOOK_ORDER_IDS = { from: 9_100_000_000_000, to: 9_199_999_999_999 };

export async function measureWebhooks(
  url: string,
  options: { deliveries: number; members: number; secret: string; countStored: (fromId: number, toId: number) => Promise<number> },
): Promise<WebhookFigures> {
  const firstId = WEBHOOK_ORDER_IDS.from + (Date.now() % 1_000_000) * 1_000;
  const requests = Array.from({ length: options.deliveries }, (_, i) => {
    const member = 1 + Math.floor(Math.random() * options.members);
    const product = 1 + (i % 12);
    const body = JSON.stringify(
      swedishOrder({
        id: firstId + i,
        name: `#B${i}`,
        refCode: linkCodeOf(member),
        createdAt: new Date().toISOString(),
        lineItems: [
          { id: 1, productId: null, sku: `SKU-${product}`, title: 'Bivaxdukar 3-pack', price: '149.00', quantity: 2 },
          { id: 2, productId: null, sku: `SKU-${1 + ((product + 5) % 12)}`, title: 'Svensk honung 350 g', price: '109.00', quantity: 1 },
        ],
      }),
    );
    return {
      method: 'POST',
      path: '/api/webhooks/shopify',
      body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/create',
        'x-shopify-hmac-sha256': signShopifyWebhook(body, options.secret),
        'x-shopify-shop-domain': 'saljportalen-bench.myshopify.com',
        'x-shopify-api-version': '2025-01',
        'x-shopify-webhook-id': `bench-${crypto.randomUUID()}`,
      },
    } satisfies Request;
  });
  let next = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount: requests.length,
    timeout: 30,
    requests: [{ setupRequest: () => requests[next++ % requests.length]! }],
  });
  return {
    deliveries: requests.length,
    ordersPerSecond: requests.length / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
    stored: await options.countStored(firstId, firstId + requests.length - 1),
  };
}
