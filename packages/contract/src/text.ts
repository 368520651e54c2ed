/**
 * C0 and C1 control characters (NUL, CR, LF, TAB, ESC, DEL, U+0080–U+009F) and the Unicode line and
 * paragraph separators. None belongs in a name or a title: PostgreSQL cannot store NUL, and a line
 * break or an escape inside a name can start a new row, a formula or a terminal sequence wherever
 * the name is written out (CSV, PDF, logs).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A UTF-16 surrogate pair, or a surrogate without its other half: the second is no Unicode
 * character and has no UTF-8 encoding. JSON's `\ud800` escape makes one, and PostgreSQL's jsonb
 * refuses it (issue 28). Pairs are matched first so that only lone halves are left for the second
 * branch (no lookbehind, which older Safari cannot parse: the web loads this module).
 */
const SURROGATES = /[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;
const ANY_SURROGATE = /[\ud800-\udfff]/;
const isPair = (match: string) => match.length === 2;

/**
 * Whether text holds a character no text of the portal may hold: NUL (PostgreSQL cannot store it
 * in text or jsonb) or a lone surrogate (not Unicode; jsonb refuses it). The server refuses a
 * request with either, in any string of its query, path or body, before any schema (decision 053).
 */
export function hasForbiddenCharacter(value: string): boolean {
  if (value.includes('\u0000')) return true;
  // Almost all text has no surrogate at all: one scan, no allocation.
  if (!ANY_SURROGATE.test(value)) return false;
  for (const match of value.matchAll(SURROGATES)) if (!isPair(match[0])) return true;
  return false;
}

/** Well-formed Unicode: each lone surrogate becomes U+FFFD, what a UTF-8 encoder makes of it anyway. */
export function toWellFormedText(value: string): string {
  return value.replace(SURROGATES, (match) => (isPair(match) ? match : '\ufffd'));
}

/**
 * A name or a title as one line of well-formed text: control characters become a space, runs of
 * spaces one, ends trimmed, a lone surrogate U+FFFD.
 */
export function toSingleLineText(value: string): string {
  return toWellFormedText(value)
    .replace(CONTROL_CHARACTERS, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_BUT_LINE_BREAK = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A note of several lines (a teacher's closing note): line breaks kept as `\n`, every other control
 * character a space, spaces at the ends of lines and more than one empty line in a row dropped.
 */
export function toMultiLineText(value: string): string {
  return toWellFormedText(value)
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL_BUT_LINE_BREAK, ' ')
    .replace(/ {2,}/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
