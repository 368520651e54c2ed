import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfImageCount, pdfQrCodes, pdfText, solidColourPng } from '../../../test/pdf-tools.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { importProducts } from '../shopify/import-products.js';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
/** The shop's picture server, on the loopback: one PNG, and 404 or a web page for everything else. */
let pictures: http.Server;
let picturesUrl: string;
const pictureHits = new Map<string, number>();
const honey = solidColourPng(60, 45, [201, 148, 30]);

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  pictures = http.createServer((request, response) => {
    pictureHits.set(request.url!, (pictureHits.get(request.url!) ?? 0) + 1);
    if (request.url === '/files/honung.png?v=1') response.writeHead(200, { 'content-type': 'image/png' }).end(honey);
    else if (request.url === '/files/sida.jpg') response.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>Inloggning</html>');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
  picturesUrl = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  pictures.closeAllConnections();
  await new Promise((resolve) => pictures.close(resolve));
});

async function rows<T>(query: SQL): Promise<T[]> {
  return sqlRows<T>(server.app.db, query);
}

const readable = (text: string) => text.replace(/\u00a0/g, ' ');

describe('GET /api/catalog/me.pdf', () => {
  it("is the seller's printable catalogue: name as chosen, link, QR code and the active products", async () => {
    const token = await server.login('elsa@demo.se');
    // A name with å, ä and ö, saved the way the seller would, through the profile form.
    const renamed = await server.request('POST', '/api/account/profile', { token, body: { full_name: 'Elsa Åström Öhrnäs' } });
    expect(renamed.status).toBe(200);
    // The whole name only because she chose it (decision 037); the first name is the default.
    const chosen = await server.request('POST', '/api/account/public-name', { token, body: { public_name: 'full_name', alias: null } });
    expect(chosen.status).toBe(200);
    const picture = solidColourPng(40, 30, [42, 122, 75]);
    await server.app.db.execute(
      sql`update products set image_url = ${`data:image/png;base64,${picture.toString('base64')}`} where title = 'Ekologiskt kaffe 500 g'`,
    );
    await server.app.db.execute(
      sql`update products set image_url = ${`${picturesUrl}/files/saknas.png`} where title = 'Svensk honung 350 g'`,
    );
    await server.app.db.execute(sql`update products set active = false where title = 'Doftljus av rapsvax'`);

    const response = await server.request('GET', '/api/catalog/me.pdf', { token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    // The name as written for the browser, spelt in ASCII for a client that reads only `filename` (issue 32 point 3).
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename=katalog-Elsa-Astrom-Ohrnas.pdf; filename*=UTF-8''katalog-Elsa-%C3%85str%C3%B6m-%C3%96hrn%C3%A4s.pdf`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    const [membership] = await rows<{ link_code: string }>(sql`
      select m.link_code from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
      where u.email = 'elsa@demo.se' and g.code = 'BJK6B2'`);
    const link = `http://localhost:3000/s/${membership!.link_code}`;
    const text = readable(pdfText(pdf));
    expect(text).toContain('Elsa Åström Öhrnäs');
    expect(text).not.toContain('Klass 6B');
    expect(text).not.toContain('Björkskolan');
    expect(text).toContain(link);
    expect(pdfQrCodes(pdf)).toEqual([link]);

    const activeProducts = await rows<{ title: string; price_ore: string }>(sql`select title, price_ore::text from products where active`);
    expect(activeProducts.length).toBeGreaterThan(0);
    for (const product of activeProducts) {
      expect(text).toContain(product.title);
      expect(text).toContain(`${Number(product.price_ore) / 100} kr`);
    }
    expect(text).toContain('Fröbomber ängsblommor');
    expect(text).toContain('Från biodlare i Västergötland.');
    expect(text).not.toContain('Doftljus av rapsvax');
    // The QR code and the data-URL picture; the one the picture server has not got is left out without failing.
    expect(pdfImageCount(pdf)).toBe(2);
  });

  it('prints every name exactly as buyers see it, in Latin, Greek, Cyrillic, Arabic and with emoji (issue 32 point 3)', async () => {
    const token = await server.login('elsa@demo.se');
    const download = async () => {
      const response = await server.request('GET', '/api/catalog/me.pdf', { token });
      expect(response.status).toBe(200);
      return {
        text: readable(pdfText(Buffer.from(await response.arrayBuffer()))),
        disposition: response.headers.get('content-disposition'),
      };
    };
    const post = async (path: string, body: object) => expect((await server.request('POST', path, { token, body })).status).toBe(200);

    await post('/api/account/profile', { full_name: 'Łucja Şahin-Nguyễn' });
    await post('/api/account/public-name', { public_name: 'full_name', alias: null });
    const fullName = await download();
    // In the heading and in the page's footer.
    expect(fullName.text.split('Łucja Şahin-Nguyễn')).toHaveLength(3);
    expect(fullName.disposition).toBe(
      `attachment; filename=katalog-Lucja-Sahin-Nguyen.pdf; filename*=UTF-8''katalog-%C5%81ucja-%C5%9Eahin-Nguy%E1%BB%85n.pdf`,
    );

    await post('/api/account/public-name', { public_name: 'alias', alias: 'Alva 🌟 från 6B' });
    const alias = await download();
    expect(alias.text.split('Alva 🌟 från 6B')).toHaveLength(3);
    expect(alias.text).not.toContain('Łucja');

    await post('/api/account/public-name', { public_name: 'full_name', alias: null });
    for (const name of ['Μαρία Παπαδοπούλου', 'Мария Иванова', 'محمد علي']) {
      await post('/api/account/profile', { full_name: name });
      expect((await download()).text, name).toContain(name);
    }
  });

  it('prints the pictures the product import points to on the shop’s picture server, fetched once', async () => {
    const token = await server.login('noah@demo.se');
    const csv = [
      'title,description,price,image_url,status',
      `Honung i glasburk,Från Västergötland.,119,${picturesUrl}/files/honung.png?v=1,active`,
      `Bivaxduk stor,Ersätter plastfolie.,89,${picturesUrl}/files/sida.jpg,active`,
      `Tvål utan bild,Handgjord.,49,${picturesUrl}/files/borttagen.png,active`,
    ].join('\n');
    expect(await importProducts(server.app.db, csv)).toMatchObject({ created: 3, skipped: [] });
    await server.app.db.execute(
      sql`update products set image_url = null where title not in ('Honung i glasburk', 'Bivaxduk stor', 'Tvål utan bild')`,
    );

    for (const attempt of [1, 2]) {
      const response = await server.request('GET', '/api/catalog/me.pdf', { token });
      expect(response.status, `hämtning ${attempt}`).toBe(200);
      const pdf = Buffer.from(await response.arrayBuffer());
      const text = readable(pdfText(pdf));
      for (const title of ['Honung i glasburk', 'Bivaxduk stor', 'Tvål utan bild']) expect(text).toContain(title);
      // The QR code and the honey jar: a web page served as a JPEG and a 404 are left out.
      expect(pdfImageCount(pdf), `hämtning ${attempt}`).toBe(2);
    }
    // The second catalogue used the kept picture; the failed addresses were not asked again either.
    expect(pictureHits.get('/files/honung.png?v=1')).toBe(1);
    expect(pictureHits.get('/files/sida.jpg')).toBe(1);
    expect(pictureHits.get('/files/borttagen.png')).toBe(1);
  });

  it('follows the active group after a switch', async () => {
    const token = await server.login('elsa@demo.se');
    const [football] = await rows<{ group_id: number; link_code: string }>(sql`
      select m.group_id, m.link_code from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
      where u.email = 'elsa@demo.se' and g.code = 'SFKP24'`);
    await server.request('POST', '/api/account/switch-group', { token, body: { group_id: football!.group_id } });
    const pdf = Buffer.from(await (await server.request('GET', '/api/catalog/me.pdf', { token })).arrayBuffer());
    expect(pdfText(pdf)).not.toContain('IK Sävedalen F12');
    expect(pdfQrCodes(pdf)).toEqual([`http://localhost:3000/s/${football!.link_code}`]);
  });

  it('answers 404 in Swedish to a user without an active group', async () => {
    const response = await server.request('GET', '/api/catalog/me.pdf', { token: await server.login('admin@saljportalen.se') });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('inte med i någon grupp');
  });
});
