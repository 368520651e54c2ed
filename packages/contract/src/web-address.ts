import type { z } from 'zod';

export const NAME_WEB_ADDRESS_MESSAGE = 'Ett namn får inte innehålla en webbadress, som https://, www. eller exempel.se';

/** A scheme and its slashes (`https://`, `hxxp://`), anywhere. */
const SCHEME = /[a-z][a-z0-9+.-]*:\/\//i;
/** `www.` as the start of a word; the full-width and ideographic stops count as dots (linkifiers treat them so). */
const WWW = /(?:^|[^\p{L}\p{N}])www\d*[.．。｡]/iu;
/** Words joined by dots, and whether a path follows: `exempel.se/x`, `Anna.lind`, `St.Eriks`. */
const DOTTED = /[\p{L}\p{N}-]+(?:[.．。｡][\p{L}\p{N}-]+)+(\/)?/gu;
/**
 * Top-level domains common in Sweden and in spam, which count in any case (`Exempel.SE`). Any
 * other ending counts when written in small letters, as addresses are and names are not.
 */
const COMMON_TOP_LEVEL = new Set(
  (
    'se nu com net org info io eu dk no fi is de uk co me app xyz online site shop store top biz tk ml ga cf gq ru cn ' +
    'link click live lol win vip club pro cc tv ly gl to be nl fr es it pl at ch us ai gg'
  ).split(' '),
);

/**
 * Whether a name holds a web address (issue 28): `http://…`, `https://…`, `www.…`, or a word that
 * looks like a domain (`exempel.se`, `exempel.se/x`, `Exempel.SE`). A name is shown to other
 * people (a guardian's mail, the class's leaderboard, a buyer's page), so whoever can set one
 * must not be able to put a link in front of them. Initials and abbreviations pass: `A.B. Berg`,
 * `St.Eriks IK`.
 */
export function containsWebAddress(text: string): boolean {
  if (SCHEME.test(text) || WWW.test(text)) return true;
  for (const match of text.matchAll(DOTTED)) {
    const ending = match[0]
      .replace(/\/$/, '')
      .split(/[.．。｡]/)
      .at(-1)!;
    if (!/^\p{L}{2,}$/u.test(ending)) continue;
    if (match[1] === '/' || ending === ending.toLowerCase() || COMMON_TOP_LEVEL.has(ending.toLowerCase())) return true;
  }
  return false;
}

/** The rule for every name a person sets that someone else sees: refused with a Swedish message when it holds a web address. */
export const withoutWebAddress = <T extends z.ZodString>(schema: T): T =>
  schema.refine((text) => !containsWebAddress(text), NAME_WEB_ADDRESS_MESSAGE);
