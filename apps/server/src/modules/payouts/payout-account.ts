import { and, eq, sql } from 'drizzle-orm';
import { PAYOUT_ACCOUNT_MISSING_MESSAGE, type TReceivingAccount } from '@saljportalen/contract';
import {
  checkPayoutAccount,
  formatPayoutAccount,
  maskPayoutAccount,
  type TGroupPayoutAccountResponse,
  type TPayoutAccount,
  type TSetPayoutAccountRequest,
} from '@saljportalen/contract/payout-account';
import type { Db, Tx } from '../../db/client.js';
import { groupPayoutAccounts, groups, users } from '../../db/schema.js';
import { AppError, fieldError, forbidden, notFound } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';

type AccountRow = typeof groupPayoutAccounts.$inferSelect;

const groupNotFound = () => notFound('Gruppen finns inte');

function toPayoutAccount(row: AccountRow): TPayoutAccount {
  return {
    kind: row.kind,
    clearing_number: row.clearingNumber,
    account_number: row.accountNumber,
    holder_name: row.holderName,
    display: formatPayoutAccount(row),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The superadmin's view of a group's payout details: null while none are set. */
export async function loadPayoutAccount(db: Db, groupId: number): Promise<TPayoutAccount | null> {
  const [row] = await db
    .select({ groupId: groups.id, account: groupPayoutAccounts })
    .from(groups)
    .leftJoin(groupPayoutAccounts, eq(groupPayoutAccounts.groupId, groups.id))
    .where(eq(groups.id, groupId));
  if (!row) throw groupNotFound();
  return row.account ? toPayoutAccount(row.account) : null;
}

/**
 * Sets (or replaces) where a group's commission is paid. The contract has checked the numbers for
 * the request already; they are checked again here because this is what writes them.
 */
export async function setPayoutAccount(
  db: Db,
  options: { groupId: number; request: TSetPayoutAccountRequest; actorUserId: number },
): Promise<TPayoutAccount> {
  const { kind, clearing_number, account_number, holder_name } = options.request;
  const checked = checkPayoutAccount(kind, clearing_number, account_number);
  if ('refusal' in checked) throw fieldError('VALIDATION', checked.refusal.field, checked.refusal.message);
  const values = {
    kind,
    clearingNumber: checked.account.clearingNumber,
    accountNumber: checked.account.accountNumber,
    holderName: holder_name,
  };
  return db.transaction(async (tx) => {
    const [group] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.id, options.groupId)).for('update');
    if (!group) throw groupNotFound();
    const [row] = await tx
      .insert(groupPayoutAccounts)
      .values({ groupId: options.groupId, ...values })
      .onConflictDoUpdate({ target: groupPayoutAccounts.groupId, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    // The log says what kind of account and its last digits, never the whole number.
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.payout_account',
      targetType: 'group',
      targetId: options.groupId,
      details: { account: maskPayoutAccount(row!), holder_name },
    });
    return toPayoutAccount(row!);
  });
}

/** The group's teacher sees the kind of account, its last four digits and the holder; a superadmin too. */
export async function loadMaskedPayoutAccount(
  db: Db,
  options: { actorUserId: number; groupId: number },
): Promise<TGroupPayoutAccountResponse> {
  const [row] = await db
    .select({ account: groupPayoutAccounts })
    .from(users)
    .leftJoin(groupPayoutAccounts, eq(groupPayoutAccounts.groupId, options.groupId))
    .where(and(eq(users.id, options.actorUserId), actsForGroup(db, options.actorUserId, options.groupId)));
  if (!row) throw forbidden('Endast gruppens administratörer kan se klassens utbetalningsuppgifter');
  return { payout_account: row.account ? { masked: maskPayoutAccount(row.account), holder_name: row.account.holderName } : null };
}

/** Where a payout of the group is paid, written out, for marking it paid; refused while none is set. */
export async function receivingAccountForPayment(tx: Tx, groupId: number): Promise<TReceivingAccount> {
  const [row] = await tx.select().from(groupPayoutAccounts).where(eq(groupPayoutAccounts.groupId, groupId));
  if (!row) throw new AppError('PAYOUT_ACCOUNT_MISSING', PAYOUT_ACCOUNT_MISSING_MESSAGE);
  return { display: formatPayoutAccount(row), holder_name: row.holderName };
}

/** A paid payout names the account it was paid to (none for one paid before accounts were kept); a draft the group's current one. */
export function receivingAccountOf(payout: {
  status: 'draft' | 'paid';
  paidToAccount: string | null;
  paidToHolder: string | null;
  groupAccount: AccountRow | null;
}): TReceivingAccount | null {
  if (payout.status === 'paid')
    return payout.paidToAccount === null ? null : { display: payout.paidToAccount, holder_name: payout.paidToHolder ?? '' };
  return payout.groupAccount && { display: formatPayoutAccount(payout.groupAccount), holder_name: payout.groupAccount.holderName };
}
