/**
 * C0 and C1 control characters (NUL, CR, LF, TAB, ESC, DEL, U+0080–U+009F) and the Unicode line and
 * paragraph separators. None belongs in a name or a title: PostgreSQL cannot store NUL, and a line
 * break or an escape inside a name can start a new row, a formula or a terminal sequence wherever
 * the name is written out (CSV, PDF, logs).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A name or a title as one line of text: control characters become a space, runs of spaces one, ends trimmed. */
export function toSingleLineText(value: string): string {
  return value
    .replace(CONTROL_CHARACTERS, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
