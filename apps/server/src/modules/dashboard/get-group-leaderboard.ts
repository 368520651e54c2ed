import { ZLeaderboardResponseSchema, type TLeaderboardResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { compressBody, type CompressedBody } from '../../lib/compressed-body.js';
import { oreToSek } from '../../lib/money.js';
import type { LeaderboardCache } from './leaderboard-cache.js';
import type { SellerView } from '../figures/seller-view.js';
import { selectLeaderboardRows } from '../figures/leaderboard-rows.js';

const swedishNames = new Intl.Collator('sv-SE');

const HIDDEN = compressBody(JSON.stringify({ group: { leaderboard_visible: false }, items: [] } satisfies TLeaderboardResponse), 'once');

/**
 * One version of a group's leaderboard: its rows as JSON, and the whole answer for each setting
 * of the group's visibility, compressed when first asked for. A 500-seller group's answer is
 * some 40 KB of JSON, 6 KB compressed, sent to every member's phone.
 */
export class LeaderboardVersion {
  private readonly answers = new Map<boolean, CompressedBody>();

  constructor(private readonly itemsJson: string) {}

  answer(visible: boolean): CompressedBody {
    let answer = this.answers.get(visible);
    if (!answer) {
      answer = compressBody(`{"group":{"leaderboard_visible":${visible}},"items":${this.itemsJson}}`, 'often');
      this.answers.set(visible, answer);
    }
    return answer;
  }
}

/**
 * Every member of the group with their sales, highest first and by name on a tie, as the JSON
 * of the answer's `items`. The database's collation differs between PGlite and PostgreSQL
 * installs, so the (group-sized) list is ordered here, where Swedish order (… Å Ä Ö) is the same
 * everywhere. Checked against the contract once, when it is made.
 */
async function loadLeaderboard(db: Db, groupId: number): Promise<LeaderboardVersion> {
  const rows = await selectLeaderboardRows(db, groupId);
  rows.sort((a, b) => b.salesOre - a.salesOre || swedishNames.compare(a.sellerName, b.sellerName) || a.userId - b.userId);
  const items = ZLeaderboardResponseSchema.shape.items.parse(
    rows.map((row) => ({
      user_id: row.userId,
      seller_name: row.sellerName,
      sales: oreToSek(row.salesOre),
      commission: oreToSek(row.commissionOre),
    })),
  );
  return new LeaderboardVersion(JSON.stringify(items));
}

/**
 * The active group's leaderboard, the answer ready to send (spec §7 leaderboard-mine). Who may
 * see it is decided on every request from the live rows (the seller view); the rows themselves
 * come from the cache while the group's figures version is unchanged.
 */
export async function getGroupLeaderboard(
  db: Db,
  options: { view: SellerView; cache: LeaderboardCache<LeaderboardVersion> },
): Promise<CompressedBody> {
  const { membership } = options.view;
  // Spec §6: admins always see it; a seller gets nothing while it is hidden, not just a hint to hide it.
  const version = membership?.group.figuresVersion;
  if (!membership || version === null || version === undefined) return HIDDEN;
  const { group } = membership;
  if (!group.leaderboardVisible && membership.role !== 'admin') return HIDDEN;
  const leaderboard = await options.cache.get(group.id, version, () => loadLeaderboard(db, group.id));
  return leaderboard.answer(group.leaderboardVisible);
}
