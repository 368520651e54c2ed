import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema.js';

/** Lower-case ASCII: 'Åsa-Lind Öberg' → 'asa-lind oberg'; letters without a plain form ('ß', 'ø') become their nearest. */
export function foldName(text: string): string {
  return text
    .toLocaleLowerCase('sv')
    .replace(/ß/g, 'ss')
    .replace(/[øœ]/g, 'o')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9 -]/g, '');
}

/**
 * The stem of a class-list pupil's username (issue 31): the folded first name, a dot and the
 * first two letters of the last name, never the whole surname (one letter of a two-letter one).
 * 'Alva Öberg' → 'alva.ob', 'Li Ek' → 'li.e'. A name with nothing left after folding gets 'elev'.
 */
export function usernameStem(fullName: string): string {
  const words = foldName(fullName)
    .split(/\s+/)
    .map((word) => word.replace(/^-+|-+$/g, '').replace(/-{2,}/g, '-'))
    .filter(Boolean);
  const first = words[0] ?? 'elev';
  const last = (words.at(-1) ?? '').replace(/[^a-z]/g, '');
  const letters = words.length < 2 || last.length === 0 ? 'x' : last.length <= 2 ? last.slice(0, 1) : last.slice(0, 2);
  return `${first}.${letters}`;
}

/** The stem itself when free, otherwise the stem with the lowest free number from 2 ('alva.ob2'). */
export function firstFreeUsername(stem: string, taken: ReadonlySet<string>): string {
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n++) if (!taken.has(`${stem}${n}`)) return `${stem}${n}`;
}

/**
 * A username unique across the portal, case-insensitively: the taken names of the stem are read
 * in the transaction, and `reserved` holds those handed out earlier in the same class list. The
 * unique index on lower(username) still decides between two lists saved at the same moment.
 */
export async function makeUsername(tx: Tx, fullName: string, reserved: Set<string>): Promise<string> {
  const stem = usernameStem(fullName);
  const rows = await tx
    .select({ username: sql<string>`lower(${users.username})` })
    .from(users)
    .where(sql`lower(${users.username}) ~ ${`^${stem.replace(/[.-]/g, '\\$&')}[0-9]*$`}`);
  const taken = new Set([...reserved, ...rows.map((row) => row.username)]);
  const username = firstFreeUsername(stem, taken);
  reserved.add(username);
  return username;
}
