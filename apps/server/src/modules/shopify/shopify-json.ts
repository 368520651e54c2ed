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
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      i++;
      while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const start = i;
      if (text[i] === '-') i++;
      while (i < text.length && text[i]! >= '0' && text[i]! <= '9') i++;
      const integerEnd = i;
      while (i < text.length && '0123456789.eE+-'.includes(text[i]!)) i++;
      const literal = text.slice(start, i);
      if (integerEnd === i && !Number.isSafeInteger(Number(literal))) {
        quoted += `${text.slice(copiedUpTo, start)}"${literal}"`;
        copiedUpTo = i;
      }
    } else {
      i++;
    }
  }
  return copiedUpTo === 0 ? plain : JSON.parse(quoted + text.slice(copiedUpTo));
}
