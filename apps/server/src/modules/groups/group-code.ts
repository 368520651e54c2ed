import { groups } from '../../db/schema.js';
import type { Db, Tx } from '../../db/client.js';
import { randomCode } from '../../lib/random-codes.js';

/** Six characters of a 29-letter alphabet: 594 million codes, short enough to read out in class. */
export const GROUP_CODE_LENGTH = 6;

export const generateGroupCode = () => randomCode(GROUP_CODE_LENGTH);

const MAX_CODE_ATTEMPTS = 10;

/**
 * Inserts a group under a fresh code. The unique index decides: a taken code makes the insert do
 * nothing (without aborting the transaction) and the next code is tried.
 */
export async function insertGroupWithUniqueCode(
  tx: Db | Tx,
  options: { name: string; nextCode?: () => string },
): Promise<{ id: number; name: string; code: string }> {
  const nextCode = options.nextCode ?? generateGroupCode;
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const [group] = await tx
      .insert(groups)
      .values({ name: options.name, code: nextCode() })
      .onConflictDoNothing({ target: groups.code })
      .returning({ id: groups.id, name: groups.name, code: groups.code });
    if (group) return group;
  }
  throw new Error(`ingen ledig gruppkod efter ${MAX_CODE_ATTEMPTS} försök`);
}
