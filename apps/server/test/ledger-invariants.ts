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
      rule: 'en rad hör till samma grupp och säljare som sin order',
      query: sql`select l.id::text from order_lines l join orders o on o.id = l.order_id
            where l.group_id is distinct from o.group_id or l.membership_id is distinct from o.membership_id`,
    },
    {
      rule: 'en avräknad rad hör till avräkningens grupp och är bokförd inom dess period (svensk tid)',
      query: sql`select l.id::text from order_lines l join payouts p on p.id = l.payout_id
            where l.group_id is distinct from p.group_id
               or (l.booked_at at time zone 'Europe/Stockholm')::date not between p.period_from and p.period_to`,
    },
    {
      rule: 'en avräknings summor och antal är dess raders',
      query: sql`select p.id::text from payouts p left join order_lines l on l.payout_id = p.id group by p.id
            having p.sales_ore <> coalesce(sum(l.amount_ore), 0) or p.commission_ore <> coalesce(sum(l.commission_ore), 0)
                or p.lines_count <> count(l.id) or p.orders_count <> count(distinct l.order_id)`,
    },
  ];
  const violations: string[] = [];
  for (const check of checks) {
    const rows = await sqlRows<{ id: string }>(db, check.query);
    if (rows.length > 0) violations.push(`${check.rule}: bryts av ${rows.map((row) => row.id).join(', ')}`);
  }
  return violations;
}
