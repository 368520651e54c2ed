import {
  ZFullLeaderboardSchema,
  ZParticipationLeaderboardSchema,
  type TLeaderboardMode,
  type TLeaderboardResponse,
  type TParticipation,
} from '@saljportalen/contract';
import { compressBody, type CompressedBody } from '../../lib/compressed-body.js';
import { oreToSek } from '../../lib/money.js';
import type { SellerView } from '../figures/seller-view.js';
import type { MemberRow, ReadModel } from '../figures/read-model/read-model.js';

const swedishNames = new Intl.Collator('sv-SE');

/**
 * A protected identity or a pupil awaiting consent is on no leaderboard (issue 22), nor is an
 * erased account (issue 33 point 2, decision 063): a 'Borttagen säljare, 0 kr' row told the class
 * nothing and showed that someone had left. Its sales stay in the class's totals, which are the
 * group's own figures, so the list need not add up to them.
 */
const onLeaderboard = (row: MemberRow) => !row.protectedIdentity && row.guardianConsent !== 'pending' && row.erasedAt === null;

/** The class's pupils (decision 038): seller memberships of accounts not erased; the teacher is none. */
const isPupil = (row: MemberRow) => row.role === 'seller' && row.erasedAt === null;

/** Has sold at least once: one order that was not cancelled. */
const hasStarted = (row: MemberRow) => row.ordersCount > 0;

/**
 * One version of a group's leaderboard: its rows read once, and each answer made from them (for
 * each mode and visibility) compressed when first asked for. A 500-seller group's full answer is
 * some 40 KB of JSON, 6 KB compressed, sent to every member's phone.
 */
export class LeaderboardVersion {
  private readonly answers = new Map<string, CompressedBody>();
  readonly participation: TParticipation;

  constructor(private readonly rows: MemberRow[]) {
    const pupils = rows.filter(isPupil);
    this.participation = { started: pupils.filter(hasStarted).length, members: pupils.length };
  }

  /**
   * The answer of a mode that shows the same to everyone in the group (full, participation);
   * `withheld`: the seller's answer while the admin hides the list, with no one in it.
   */
  shared(mode: Exclude<TLeaderboardMode, 'own_only'>, visible: boolean, withheld = false): CompressedBody {
    const key = `${mode}:${visible}:${withheld}`;
    let answer = this.answers.get(key);
    if (!answer) {
      const body = mode === 'full' ? this.full(visible) : this.participants(visible);
      if (withheld) {
        if (body.mode === 'full') body.items = [];
        if (body.mode === 'participation') body.sellers = [];
      }
      answer = compressBody(JSON.stringify(body), 'often');
      this.answers.set(key, answer);
    }
    return answer;
  }

  /**
   * Every member with their sales, highest first and by name on a tie. The database's collation
   * differs between PGlite and PostgreSQL installs, so the (group-sized) list is ordered here,
   * where Swedish order (… Å Ä Ö) is the same everywhere. Checked against the contract when made.
   */
  private full(visible: boolean): TLeaderboardResponse {
    const rows = this.rows
      .filter(onLeaderboard)
      .sort((a, b) => b.salesOre - a.salesOre || swedishNames.compare(a.sellerName, b.sellerName) || a.userId - b.userId);
    return ZFullLeaderboardSchema.parse({
      mode: 'full',
      group: { leaderboard_visible: visible },
      items: rows.map((row) => ({
        user_id: row.userId,
        seller_name: row.sellerName,
        sales: oreToSek(row.salesOre),
        commission: oreToSek(row.commissionOre),
      })),
    });
  }

  /** The pupils who have started, in Swedish name order: no amount, no rank (issue 20). */
  private participants(visible: boolean): TLeaderboardResponse {
    const rows = this.rows
      .filter((row) => isPupil(row) && onLeaderboard(row) && hasStarted(row))
      .sort((a, b) => swedishNames.compare(a.sellerName, b.sellerName) || a.userId - b.userId);
    return ZParticipationLeaderboardSchema.parse({
      mode: 'participation',
      group: { leaderboard_visible: visible },
      participation: this.participation,
      sellers: rows.map((row) => ({ user_id: row.userId, seller_name: row.sellerName })),
    });
  }
}

/** The group's leaderboard as it is now, made once per change of the group in the read model (shared with the totals' participation). */
export function leaderboardOf(model: Pick<ReadModel, 'derived'>, groupId: number): LeaderboardVersion | null {
  return model.derived(groupId, 'leaderboard', (rows) => new LeaderboardVersion(rows));
}

const NO_GROUP = compressBody(
  JSON.stringify({ mode: 'full', group: { leaderboard_visible: false }, items: [] } satisfies TLeaderboardResponse),
  'once',
);

/**
 * The active group's leaderboard, the answer ready to send (spec §7 leaderboard-mine), as the
 * group's mode shows it (issue 20, decision 039). The mode applies to everyone in the group, its
 * admins too, and the server withholds what it hides: `participation` sends names without amounts,
 * `own_only` the caller's own figures and the class's, nobody else's. Who may see it is decided
 * on every request from the live rows (the seller view); the rows come from the cache while the
 * group's figures version is unchanged.
 */
export function getGroupLeaderboard(model: Pick<ReadModel, 'derived'>, view: SellerView): CompressedBody {
  const { membership } = view;
  const version = membership && leaderboardOf(model, membership.group.id);
  if (!membership || !version) return NO_GROUP;
  const { group } = membership;
  if (group.leaderboardMode === 'own_only') {
    // One's own figures are no secret from oneself, so own_only answers the same hidden or shown.
    const answer: TLeaderboardResponse = {
      mode: 'own_only',
      group: { leaderboard_visible: group.leaderboardVisible },
      participation: version.participation,
      own: { sales: oreToSek(membership.personal.salesOre), commission: oreToSek(membership.personal.commissionOre) },
      total_sales: oreToSek(membership.groupFigures.salesOre),
    };
    return compressBody(JSON.stringify(answer), 'often');
  }
  // Spec §6: admins always see it; a seller gets nothing while it is hidden, not just a hint to hide it.
  const withheld = !group.leaderboardVisible && membership.role !== 'admin';
  return version.shared(group.leaderboardMode, group.leaderboardVisible, withheld);
}
