/**
 * The national-scale data set of issue 7, written with set-based SQL (generate_series, insert …
 * select) straight into the migrated schema, so it takes minutes, not hours:
 *
 * - 2 000 active groups: one of 500 sellers (the CSV export's group, 100 000 order lines) and
 *   1 999 of 29–30 sellers; the first member of each group is its admin (the teacher);
 * - 60 000 sellers (users with one membership each) and one superadmin;
 * - 1 000 000 orders with 2 000 000 lines over the last 120 days: 1 % cancelled (a sale and its
 *   cancellation), 1 % partly refunded (a sale and a refund of half), 0.5 % unattributed;
 * - one paid payout per group settling the lines booked more than 60 days ago;
 * - the webhook events that brought them: an orders/create per order, an orders/cancelled or a
 *   refunds/create where one happened (payloads cut down to the order's id and name: Shopify's
 *   are some 8 KB each; the lookups measured read the events by key, never their payloads);
 * - twelve products, a third with pictures.
 *
 * A `scale` of 0.1 gives a tenth of the groups, sellers and ordinary orders with the same group
 * shapes (the 500-seller group keeps its 100 000 lines, every 30-seller group its ~1 000), so a
 * seller call reads the same rows on both and only the tables around it grow.
 * Every id is set explicitly (`overriding system value`), so the same scale gives the same rows.
 */
import { sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { Db, Tx } from '../apps/server/src/db/client.js';
import { FIRST_NAMES as DEMO_FIRST_NAMES, LAST_NAMES as DEMO_LAST_NAMES } from '../apps/server/src/modules/demo/seed.js';

export interface DataShape {
  /** Changes whenever the generator writes different rows, so an older data set is made again. */
  generator: number;
  scale: number;
  groups: number;
  sellers: number;
  bigGroupSellers: number;
  bigGroupOrders: number;
  otherOrders: number;
}

export function dataShape(scale: number): DataShape {
  return {
    generator: 3,
    scale,
    groups: Math.round(2_000 * scale),
    sellers: Math.round(60_000 * scale),
    bigGroupSellers: 500,
    bigGroupOrders: 50_000,
    otherOrders: Math.round(950_000 * scale),
  };
}

/** The group every seller call "for the 500-seller group" and the CSV export use. */
export const BIG_GROUP_ID = 1;
export const SUPERADMIN_EMAIL = 'drift@bench.saljportalen.se';

/** The demo's names and a few more, so that the generated sellers' names take in å, ä, ö and names of other origins. */
const FIRST_NAMES = [...DEMO_FIRST_NAMES, 'Åsa', 'Örjan', 'Ängla', 'Ali', 'Fatima', 'Omar', 'Zeynep', 'Mohammed'];
const LAST_NAMES = [...DEMO_LAST_NAMES, 'Ängström', 'Hassan'];
const SCHOOLS = ['Björkskolan', 'Ekskolan', 'Tallbacken', 'Strandskolan', 'Kvarnbyskolan', 'Ängsskolan', 'Örnskolan', 'IK Sävedalen'];
const PRODUCTS = [
  ['Bivaxdukar 3-pack', 14_900],
  ['Ekologiskt kaffe 500 g', 11_900],
  ['Tandborstar i bambu 4-pack', 8_900],
  ['Strumpor av återvunnen bomull', 9_900],
  ['Tygkasse i ekologisk bomull', 7_900],
  ['Svensk honung 350 g', 10_900],
  ['Diskborste i trä och sisal', 6_900],
  ['Fröbomber ängsblommor', 5_900],
  ['Tvål med havtorn', 6_500],
  ['Doftljus av rapsvax', 12_900],
  ['Lunchlåda i rostfritt stål', 19_900],
  ['Vaxade brödpåsar 2-pack', 9_500],
] as const;

const textArray = (values: readonly string[]) => sql.raw(`array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')}]`);
const n = (value: number) => sql.raw(String(Math.trunc(value)));

/** Member `i` (1-based) of the data set: its group. Members 1–500 are the big group. */
const groupOfMember = (shape: DataShape, i: ReturnType<typeof sql>) =>
  sql`case when ${i} <= ${n(shape.bigGroupSellers)} then 1 else 2 + (${i} - ${n(shape.bigGroupSellers + 1)}) % ${n(shape.groups - 1)} end`;

async function step(log: (line: string) => void, what: string, work: () => Promise<unknown>) {
  const start = performance.now();
  await work();
  log(`  ${what}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
}

/**
 * Writes the data set in one transaction with triggers and foreign-key checks off (the rows are
 * consistent by construction), then builds the figure rollups from it in one pass, as the
 * migration that introduced them does.
 */
export async function generateDataSet(database: Db, shape: DataShape, log: (line: string) => void): Promise<void> {
  await database.transaction(async (db) => {
    await db.execute(sql`set local session_replication_role = replica`);
    await writeRows(db, shape, log);
    await step(log, 'nyckeltal per medlemskap och grupp (rebuild_figures)', () => db.execute(sql`select rebuild_figures()`));
  });
  await step(log, 'vacuum analyze', () => database.execute(sql`vacuum analyze`));
}

async function writeRows(db: Tx, shape: DataShape, log: (line: string) => void): Promise<void> {
  const members = shape.sellers;
  const orders = shape.bigGroupOrders + shape.otherOrders;
  const now = new Date();
  const nowSql = sql`${now.toISOString()}::timestamptz`;

  await step(log, `${shape.groups} grupper`, () =>
    db.execute(sql`insert into groups (id, name, code, archived, created_at) overriding system value
      select g,
             case when g = 1 then 'Björkskolan årskurs 9' else 'Klass ' || (1 + g % 9) || chr(65 + g % 6) || ' ' || (${textArray(SCHOOLS)})[1 + g % ${n(SCHOOLS.length)}] || ' ' || g end,
             'G' || lpad(g::text, 5, '0'), false, ${nowSql} - (${n(shape.groups)} - g) * interval '2 hours' - interval '30 days'
      from generate_series(1, ${n(shape.groups)}) g`),
  );

  await step(log, `${members} säljare och en superadmin`, async () => {
    await db.execute(sql`insert into users (id, email, password_hash, full_name, phone, active_group_id, created_at) overriding system value
      select i, 'saljare' || i || '@bench.saljportalen.se', 'bench-no-login',
             (${textArray(FIRST_NAMES)})[1 + (i * 7) % ${n(FIRST_NAMES.length)}] || ' ' || (${textArray(LAST_NAMES)})[1 + (i * 13) % ${n(LAST_NAMES.length)}],
             '070' || lpad((i % 10000000)::text, 7, '0'), ${groupOfMember(shape, sql`i`)}, ${nowSql} - interval '25 days'
      from generate_series(1, ${n(members)}) i`);
    await db.execute(sql`insert into users (id, email, password_hash, full_name, is_superadmin) overriding system value
      values (${n(members + 1)}, ${SUPERADMIN_EMAIL}, 'bench-no-login', 'Drift Benchsson', true)`);
    // The first member of each group is its admin: member 1 for the big group, the next 1 999 for the others.
    await db.execute(sql`insert into memberships (id, user_id, group_id, role, link_code, created_at) overriding system value
      select i, i, ${groupOfMember(shape, sql`i`)},
             case when i = 1 or (i > ${n(shape.bigGroupSellers)} and i <= ${n(shape.bigGroupSellers + shape.groups - 1)})
                  then 'admin'::membership_role else 'seller'::membership_role end,
             'BL' || upper(to_hex(i * 7919 + 100000)), ${nowSql} - interval '25 days'
      from generate_series(1, ${n(members)}) i`);
  });

  await step(log, `${PRODUCTS.length} produkter`, async () => {
    const picture = await QRCode.toDataURL('produktbild', { width: 400, color: { dark: '#2a7a4b' } });
    for (const [index, [title, priceOre]] of PRODUCTS.entries()) {
      await db.execute(sql`insert into products (id, shopify_product_id, sku, title, description, price_ore, image_url) overriding system value
        values (${index + 1}, ${9_000_000_000 + index + 1}, ${`SKU-${index + 1}`}, ${title},
                'Tillverkad i Sverige av förnybart material. Håller länge, går att laga och återvinna när den är slut.',
                ${priceOre}, ${index % 3 === 0 ? picture : null})`);
    }
  });

  // Order k: the big group's orders are 1–50 000, the rest follow. Amounts and times are
  // functions of k, so the orders' sums can be written without reading their lines back.
  const k = sql.raw('k');
  // Some sell far more than others: member j of n gets a share that falls like j^(-1/3), from
  // about 1.6 % of the group's orders for the top seller to 0.1 % for the last in the big group.
  const skewed = (count: number) => sql`floor(${n(count)} * power(((${k}::bigint * 2246822519) % 4294967296) / 4294967296.0, 1.5))::int`;
  const memberOf = sql`case when ${k} <= ${n(shape.bigGroupOrders)}
      then 1 + ${skewed(shape.bigGroupSellers)}
      else ${n(shape.bigGroupSellers + 1)} + ${skewed(members - shape.bigGroupSellers)} end`;
  const unattributed = sql`(${k} > ${n(shape.bigGroupOrders)} and ${k} % 200 = 7)`;
  const firstAmount = sql`(5900 + (${k} % 50) * 100)::bigint`;
  const secondAmount = sql`(4900 + (${k} % 37) * 100)::bigint`;
  const commission = (amount: ReturnType<typeof sql>) => sql`(${amount} * 25 / 100)`;
  const state = sql`case when ${k} % 100 = 0 then 'cancelled' when ${k} % 100 = 1 then 'partially_refunded' else 'paid' end`;
  const orderedAt = sql`${nowSql} - interval '1 hour' - ((${k}::bigint * 2654435761) % ${n(120 * 86_400)}) * interval '1 second'`;

  await step(log, `${orders} ordrar`, () =>
    db.execute(sql`insert into orders (id, shopify_order_id, order_name, ordered_at, shopify_updated_at, membership_id, group_id, ref_code,
                                       subtotal_ore, commission_ore, state, source_event_id, created_at, updated_at) overriding system value
      select ${k}, 8000000000000 + ${k}, '#' || (100000 + ${k}), ${orderedAt}, ${orderedAt},
             m.id, m.group_id, case when ${unattributed} then 'OKAND' || ${k} else m.link_code end,
             case ${state} when 'cancelled' then 0 when 'partially_refunded' then ${firstAmount} - ${firstAmount} / 2 else ${firstAmount} + ${secondAmount} end,
             case ${state} when 'cancelled' then 0
                  when 'partially_refunded' then ${commission(firstAmount)} - ${commission(sql`(${firstAmount} / 2)`)}
                  else ${commission(firstAmount)} + ${commission(secondAmount)} end,
             ${state}, case ${state} when 'cancelled' then ${n(orders)} + ${k} else ${k} end, ${orderedAt}, ${orderedAt}
      from generate_series(1, ${n(orders)}) ${k}
      left join memberships m on m.id = ${memberOf} and not ${unattributed}`),
  );

  // Lines booked more than 60 days ago are settled in their group's payout; payout g is group g's.
  const cutoff = sql`${nowSql} - interval '60 days'`;
  await step(log, 'en utbetald avräkning per grupp', () =>
    db.execute(sql`insert into payouts (id, group_id, period_from, period_to, orders_count, lines_count, sales_ore, commission_ore,
                                        status, created_by, created_at, paid_at, paid_by) overriding system value
      select g, g, (${nowSql} - interval '121 days')::date, (${cutoff} - interval '1 day')::date, 0, 0, 0, 0,
             'paid', ${n(members + 1)}, ${cutoff}, ${cutoff} + interval '2 days', ${n(members + 1)}
      from generate_series(1, ${n(shape.groups)}) g`),
  );

  await step(log, `${2 * orders} orderrader`, () =>
    db.execute(sql`insert into order_lines (id, order_id, kind, shopify_line_id, product_id, title, quantity, amount_ore, commission_ore,
                                            group_id, membership_id, booked_at, payout_id, created_at) overriding system value
      select 2 * o.id - 2 + s, o.id,
             case when s = 1 then 'sale'::order_line_kind when o.state = 'cancelled' then 'cancellation'
                  when o.state = 'partially_refunded' then 'refund' else 'sale' end,
             case when s = 1 or o.state = 'paid' then 7000000000000 + 2 * o.id + s else 7000000000000 + 2 * o.id + 1 end,
             p.id, p.title,
             case when s = 1 or o.state = 'paid' then 1 else -1 end,
             line.amount, line.amount * 25 / 100, o.group_id, o.membership_id, line.booked_at,
             case when o.group_id is not null and line.booked_at < ${cutoff} then o.group_id end, line.booked_at
      from orders o cross join generate_series(1, 2) s
      cross join lateral (select
          case when s = 1 then (5900 + (o.id % 50) * 100)::bigint
               when o.state = 'cancelled' then -(5900 + (o.id % 50) * 100)::bigint
               when o.state = 'partially_refunded' then -((5900 + (o.id % 50) * 100) / 2)::bigint
               else (4900 + (o.id % 37) * 100)::bigint end as amount,
          case when s = 1 or o.state = 'paid' then o.ordered_at else least(o.ordered_at + interval '1 day', ${nowSql}) end as booked_at) line
      join products p on p.id = 1 + (o.id * s) % ${n(PRODUCTS.length)}`),
  );

  await step(log, 'återbetalningar pekar på sina försäljningsrader, avräkningarnas summor', async () => {
    await db.execute(sql`update order_lines r set reverses_line_id = r.id - 1 where r.kind <> 'sale'`);
    await db.execute(sql`update payouts p set orders_count = t.orders, lines_count = t.lines, sales_ore = t.sales, commission_ore = t.commission
      from (select payout_id, count(distinct order_id) orders, count(*) lines, sum(amount_ore) sales, sum(commission_ore) commission
            from order_lines where payout_id is not null group by payout_id) t
      where t.payout_id = p.id`);
  });

  // Event k is order k's orders/create; event orders + k its cancellation or refund, a day later.
  await step(log, 'webbhookhändelserna som kom med dem', () =>
    // Written reduced, as the webhook route stores an event (decision 054): otherwise every start of
    // the bench's server would first reduce them all, and fail Fastify's ten seconds for a plugin.
    db.execute(sql`insert into webhook_events (id, webhook_id, topic, shop_domain, payload, payload_reduced, received_at, processed_at,
                                               attempts, shopify_order_id, outcome) overriding system value
      select e.id, 'gen-' || e.id, e.topic, 'saljportalen-bench.myshopify.com',
             json_build_object('id', o.shopify_order_id, 'name', o.order_name)::text, true, e.at, e.at, 1, o.shopify_order_id,
             'Order ' || o.order_name
      from orders o
      cross join lateral (values (o.id, 'orders/create', o.ordered_at),
                                 (${n(orders)} + o.id, case o.state when 'cancelled' then 'orders/cancelled' else 'refunds/create' end,
                                  least(o.ordered_at + interval '1 day', ${nowSql}))) e(id, topic, at)
      where e.topic = 'orders/create' or o.state in ('cancelled', 'partially_refunded')`),
  );

  await step(log, 'identitetsräknare', async () => {
    for (const table of ['groups', 'users', 'memberships', 'products', 'orders', 'payouts', 'order_lines', 'webhook_events']) {
      await db.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`));
    }
  });
}
