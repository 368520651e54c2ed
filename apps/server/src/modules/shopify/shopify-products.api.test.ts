import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { importProducts } from './import-products.js';
import { replayWebhookEvents } from './replay-webhook-events.js';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;

async function query<T>(statement: SQL): Promise<T[]> {
  return sqlRows<T>(server.app.db, statement);
}

async function product(where: SQL) {
  const [row] = await query<{
    id: number;
    shopify_product_id: string | null;
    sku: string | null;
    title: string;
    description: string;
    price_ore: number;
    image_url: string | null;
    commission_bps: number | null;
    active: boolean;
  }>(
    sql`select id, shopify_product_id::text, sku, title, description, price_ore::int, image_url, commission_bps, active from products where ${where}`,
  );
  return row;
}

/** A products/create or products/update body as Shopify sends it (REST Admin API 2025-01), trimmed to the fields that matter. */
function shopProduct(options: { id: number; title: string; sku: string; price: string; updatedAt: string; status?: string }) {
  return {
    id: options.id,
    admin_graphql_api_id: `gid://shopify/Product/${options.id}`,
    title: options.title,
    body_html: '<p>Ekologisk och <strong>plastfri</strong>.</p><p>Tillverkad i Sverige &amp; Danmark.</p>',
    vendor: 'Säljportalen',
    product_type: 'Hushåll',
    handle: options.title.toLowerCase().replaceAll(' ', '-'),
    status: options.status ?? 'active',
    created_at: '2026-02-01T09:00:00+01:00',
    updated_at: options.updatedAt,
    published_at: '2026-02-01T09:00:00+01:00',
    tags: '',
    variants: [
      {
        id: options.id + 1,
        product_id: options.id,
        title: 'Default Title',
        price: options.price,
        sku: options.sku,
        position: 1,
        inventory_policy: 'deny',
      },
    ],
    options: [{ id: options.id + 2, product_id: options.id, name: 'Title', position: 1, values: ['Default Title'] }],
    images: [{ id: options.id + 3, product_id: options.id, position: 1, src: `https://cdn.shopify.com/s/files/${options.id}.jpg` }],
    image: { id: options.id + 3, product_id: options.id, position: 1, src: `https://cdn.shopify.com/s/files/${options.id}.jpg` },
  };
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

describe('products webhooks', () => {
  it('creates a product the shop added, with its text, price and image', async () => {
    const response = await sendShopifyWebhook(
      server.url,
      'products/create',
      shopProduct({
        id: 8_100_000_000_001,
        title: 'Bambusugrör 8-pack',
        sku: 'SP-100',
        price: '79.00',
        updatedAt: '2026-02-01T09:00:00+01:00',
      }),
    );
    expect(response.status).toBe(200);
    expect(await product(sql`shopify_product_id = 8100000000001`)).toMatchObject({
      sku: 'SP-100',
      title: 'Bambusugrör 8-pack',
      description: 'Ekologisk och plastfri.\nTillverkad i Sverige & Danmark.',
      price_ore: 7900,
      image_url: 'https://cdn.shopify.com/s/files/8100000000001.jpg',
      commission_bps: null,
      active: true,
    });
  });

  it('links a catalogue product by SKU, keeps its commission rate, and ignores an older update', async () => {
    await query(sql`update products set commission_bps = 3300 where sku = 'SP-003'`);
    const before = await product(sql`sku = 'SP-003'`);
    await sendShopifyWebhook(
      server.url,
      'products/update',
      shopProduct({
        id: 8_100_000_000_002,
        title: 'Tandborstar i bambu 4-pack',
        sku: 'SP-003',
        price: '94.00',
        updatedAt: '2026-03-01T09:00:00+01:00',
      }),
    );
    await sendShopifyWebhook(
      server.url,
      'products/update',
      shopProduct({ id: 8_100_000_000_002, title: 'Gammal titel', sku: 'SP-003', price: '10.00', updatedAt: '2026-02-15T09:00:00+01:00' }),
    );
    expect(await product(sql`sku = 'SP-003'`)).toMatchObject({
      id: before!.id,
      shopify_product_id: '8100000000002',
      title: 'Tandborstar i bambu 4-pack',
      price_ore: 9400,
      commission_bps: 3300,
    });
    const [{ n }] = (await query<{ n: number }>(sql`select count(*)::int as n from products where sku = 'SP-003'`)) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('takes a deleted or archived product out of the catalogue, and a late update does not bring it back', async () => {
    await sendShopifyWebhook(server.url, 'products/delete', { id: 8_100_000_000_001 });
    expect((await product(sql`shopify_product_id = 8100000000001`))!.active).toBe(false);
    await sendShopifyWebhook(
      server.url,
      'products/update',
      shopProduct({
        id: 8_100_000_000_001,
        title: 'Bambusugrör 8-pack',
        sku: 'SP-100',
        price: '79.00',
        updatedAt: '2026-02-02T09:00:00+01:00',
      }),
    );
    expect((await product(sql`shopify_product_id = 8100000000001`))!.active).toBe(false);
    await sendShopifyWebhook(
      server.url,
      'products/update',
      shopProduct({
        id: 8_100_000_000_002,
        title: 'Tandborstar i bambu 4-pack',
        sku: 'SP-003',
        price: '94.00',
        updatedAt: '2026-03-02T09:00:00+01:00',
        status: 'archived',
      }),
    );
    expect((await product(sql`shopify_product_id = 8100000000002`))!.active).toBe(false);
  });
});

describe('product import', () => {
  it("reads Shopify's export (several rows per product) and sets rates from a commission column", async () => {
    const csv = [
      'Handle,Title,Body (HTML),Vendor,Variant SKU,Variant Price,Image Src,Status,Provision',
      'diskborste,Diskborste i trä och sisal,<p>Utbytbart huvud</p>,SP,SP-007,72.00,https://cdn.example.se/disk.jpg,active,30',
      'diskborste,,,,SP-007-B,72.00,https://cdn.example.se/disk-2.jpg,,',
      'frobomber,Fröbomber ängsblommor,"Kasta ut, vänta, njut",SP,SP-008,59.00,,draft,',
      'trasig,Trasig rad,,SP,SP-999,gratis,,active,',
    ].join('\n');
    const report = await importProducts(server.app.db, csv);
    expect(report).toEqual({ created: 0, updated: 2, skipped: [{ line: 5, reason: 'ogiltigt pris "gratis"' }] });
    expect(await product(sql`sku = 'SP-007'`)).toMatchObject({
      title: 'Diskborste i trä och sisal',
      description: 'Utbytbart huvud',
      price_ore: 7200,
      image_url: 'https://cdn.example.se/disk.jpg',
      commission_bps: 3000,
      active: true,
    });
    expect(await product(sql`sku = 'SP-008'`)).toMatchObject({ description: 'Kasta ut, vänta, njut', price_ore: 5900, active: false });
  });

  it('reads a Swedish semicolon file with decimal commas', async () => {
    const csv = '\uFEFFsku;titel;beskrivning;pris;provision\nSP-200;Vaxad tygpåse;Stor;1 249,50;12,5\n';
    expect(await importProducts(server.app.db, csv)).toEqual({ created: 1, updated: 0, skipped: [] });
    expect(await product(sql`sku = 'SP-200'`)).toMatchObject({
      title: 'Vaxad tygpåse',
      price_ore: 124_950,
      commission_bps: 1250,
      shopify_product_id: null,
    });
  });
});

describe('replay of stored events', () => {
  it('processes an event that was stored but never processed (the process died) exactly once', async () => {
    const order = swedishOrder({ id: 7_700_000_000_001 });
    // What a crash between storing and processing leaves behind.
    await query(sql`
      insert into webhook_events (webhook_id, topic, payload, shopify_order_id)
      values ('aterspelas-1', 'orders/create', ${JSON.stringify(order)}, 7700000000001)`);
    const reported: string[] = [];
    const totals = await replayWebhookEvents(server.app.db, {
      defaultCommissionBps: 2500,
      report: (event, result) => reported.push(`${event.topic}: ${result.status}`),
    });
    expect(totals.failed).toBe(0);
    expect(reported).toContain('orders/create: processed');
    // Shopify's own redelivery afterwards finds it done.
    const redelivered = await sendShopifyWebhook(server.url, 'orders/create', order, { webhookId: 'aterspelas-1' });
    expect(((await redelivered.json()) as { outcome: string }).outcome).toContain('Redan mottagen');
    const [row] = await query<{ orders: number; lines: number }>(sql`
      select count(distinct o.id)::int as orders, count(l.id)::int as lines from orders o join order_lines l on l.order_id = o.id
      where o.shopify_order_id = 7700000000001`);
    expect(row).toEqual({ orders: 1, lines: 2 });
    expect((await replayWebhookEvents(server.app.db, { defaultCommissionBps: 2500, report: () => {} })).processed).toBe(0);
  });
});
