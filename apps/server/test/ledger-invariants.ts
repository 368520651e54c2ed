import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { sqlRows } from './admin-fixtures.js';

/**
 * The rules every figure and every payout rests on, checked straight in the tables. Returns each
 * violation found, in words; none when the ledger is sound.
 */
export async function ledgerViolations(db: Db): Promise<string[]> {
  const checks: { rule: string; query: SQL }[] = [
    {
      rule: 'orderns belopp och provision är summan av dess rader',
      query: sql`select o.id::text from orders o left join order_lines l on l.order_id = o.id group by o.id
            having o.subtotal_ore <> coalesce(sum(l.amount_ore), 0) or o.commission_ore <> coalesce(sum(l.commission_ore), 0)`,
    },
    {
      // A sale moved after a payout took it keeps its settled lines and its transfer lines (decision 067).
      rule: 'en rad hör till samma grupp som sin order, och till samma säljare så länge ingen avräkning har tagit den',
      query: sql`select l.id::text from order_lines l join orders o on o.id = l.order_id
            where l.group_id is distinct from o.group_id
               or (l.membership_id is distinct from o.membership_id and l.payout_id is null and l.kind <> 'transfer')`,
    },
    {
      rule: 'en avräknad rad hör till avräkningens grupp och är bokförd inom dess period, en dag en tidigare avräkning täckte (rättelse) eller drar av en rad en tidigare avräkning tog (avdrag)',
      query: sql`select l.id::text from order_lines l join payouts p on p.id = l.payout_id
            where l.group_id is distinct from p.group_id
               or ((l.booked_at at time zone 'Europe/Stockholm')::date not between p.period_from and p.period_to
                   and not exists (select 1 from payouts e where e.group_id = p.group_id and e.id < p.id
                                     and (l.booked_at at time zone 'Europe/Stockholm')::date between e.period_from and e.period_to)
                   and not exists (select 1 from order_lines r where r.id = l.reverses_line_id and r.payout_id is not null and r.payout_id <> p.id))`,
    },
    {
      // The one order count (issue 30), in a payout's own lines (ordersCountedInPayout): its sale, not its cancellation.
      rule: 'en avräknings summor och antal är dess raders',
      query: sql`select p.id::text from payouts p left join order_lines l on l.payout_id = p.id group by p.id
            having p.sales_ore <> coalesce(sum(l.amount_ore), 0) or p.commission_ore <> coalesce(sum(l.commission_ore), 0)
                or p.lines_count <> count(l.id)
                or p.orders_count <> count(distinct l.order_id) filter (where l.kind = 'sale' and not exists (
                     select 1 from order_lines c where c.payout_id = p.id and c.order_id = l.order_id and c.kind = 'cancellation'))`,
    },
  ];
  const violations: string[] = [];
  for (const check of checks) {
    const rows = await sqlRows<{ id: string }>(db, check.query);
    if (rows.length > 0) violations.push(`${check.rule}: bryts av ${rows.map((row) => row.id).join(', ')}`);
  }
  return violations;
}

/** Memberships and groups whose rollup differs from the orders' own sums (none when exact). */
export async function rollupMismatches(db: Db) {
  const memberships = await sqlRows<{ id: number }>(
    db,
    sql`select m.id from memberships m
        left join membership_figures f on f.membership_id = m.id
        left join (select membership_id, sum(subtotal_ore) as sales, sum(commission_ore) as commission,
                          count(*) filter (where state <> 'cancelled') as orders
                   from orders where membership_id is not null group by membership_id) o on o.membership_id = m.id
        where f.membership_id is null or f.group_id <> m.group_id or f.sales_ore <> coalesce(o.sales, 0) or f.commission_ore <> coalesce(o.commission, 0)
           or f.orders_count <> coalesce(o.orders, 0)`,
  );
  const groups = await sqlRows<{ id: number }>(
    db,
    sql`select g.id from groups g
        left join group_figures f on f.group_id = g.id
        left join (select group_id, sum(subtotal_ore) as sales, sum(commission_ore) as commission,
                          count(*) filter (where state <> 'cancelled') as orders
                   from orders where group_id is not null group by group_id) o on o.group_id = g.id
        left join (select group_id, count(*) as members from memberships group by group_id) m on m.group_id = g.id
        where f.group_id is null or f.sales_ore <> coalesce(o.sales, 0) or f.commission_ore <> coalesce(o.commission, 0)
           or f.orders_count <> coalesce(o.orders, 0) or f.sellers_count <> coalesce(m.members, 0)`,
  );
  const orphans = await sqlRows<{ id: number }>(
    db,
    sql`select membership_id as id from membership_figures f where not exists (select 1 from memberships m where m.id = f.membership_id)`,
  );
  return { memberships, groups, orphans };
}
