import { toWellFormedText } from '@saljportalen/contract';

/**
 * Text PostgreSQL can store, line breaks kept: for multi-line text that comes from outside
 * (product descriptions, error messages recorded for the operator). PostgreSQL refuses NUL in
 * text and in jsonb, which refuses a lone surrogate's `\ud800` escape too; NUL goes, a lone
 * surrogate becomes U+FFFD (what the drivers' UTF-8 encoding would make of it in text anyway).
 * Names and titles take `toSingleLineText` (contract), which removes every control character.
 */
export function toStorableText(value: string): string {
  return toWellFormedText(value.replaceAll('\u0000', ''));
}
