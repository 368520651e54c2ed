/**
 * A string literal (skipped whole, so digits inside one are never touched), or an integer literal
 * of 16 digits or more (every unsafe integer has that many) that is a whole number token: not
 * the fraction or exponent of another number, not followed by one.
 */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;

/**
 * Shopify's ids are 64-bit integers, and its own sample payloads use 18-digit ones: JSON.parse
 * would round 788032119674292922 and 788032119674292923 to the same number (two products become
 * one). Integer literals beyond 2^53 are therefore read as decimal strings; everything else is
 * plain JSON.parse. Throws SyntaxError on malformed JSON, like JSON.parse.
 */
export function parseShopifyJson(text: string): unknown {
  // Parsing once first rejects malformed input, so quoting below only ever touches number
  // tokens in value positions and can never turn invalid JSON into valid JSON.
  const plain: unknown = JSON.parse(text);
  let quoted = '';
  let copiedUpTo = 0;
  for (const match of text.matchAll(STRING_OR_LONG_INTEGER)) {
    const literal = match[0];
    if (literal.startsWith('"') || Number.isSafeInteger(Number(literal))) continue;
    quoted += `${text.slice(copiedUpTo, match.index)}"${literal}"`;
    copiedUpTo = match.index + literal.length;
  }
  return copiedUpTo === 0 ? plain : JSON.parse(quoted + text.slice(copiedUpTo));
}
