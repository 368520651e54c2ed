import type { Db, Tx } from '../../db/client.js';
import { auditEntries } from '../../db/schema.js';

export interface AuditEntry {
  /** Null for changes made by the system itself (webhooks, scheduled jobs). */
  actorUserId: number | null;
  /** Dotted verb, e.g. `group.create`, `group.archive`, `payout.mark_paid`. */
  action: string;
  targetType: string;
  targetId: string | number | null;
  details?: Record<string, unknown>;
}

/**
 * Records one change in the audit log. Pass the transaction that makes the change, so the
 * entry exists exactly when the change does.
 */
export async function writeAudit(tx: Db | Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditEntries).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId === null ? null : String(entry.targetId),
    details: entry.details ?? null,
  });
}
