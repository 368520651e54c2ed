/** A UTF-16 surrogate without its other half: no Unicode character, and no UTF-8 encoding. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text PostgreSQL can store, line breaks kept: for multi-line text that comes from outside
 * (product descriptions, error messages recorded for the operator). PostgreSQL refuses NUL in
 * text and in jsonb, which refuses a lone surrogate's `\ud800` escape too; NUL goes, a lone
 * surrogate becomes U+FFFD (what the drivers' UTF-8 encoding would make of it in text anyway).
 * Names and titles take `toSingleLineText` (contract), which removes every control character.
 */
export function toStorableText(value: string): string {
  return value.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd');
}
