/**
 * The personal catalogue's file name, with the name as it is written (issue 32 point 3):
 * "Łucja Şahin" → "katalog-Łucja-Şahin.pdf". Letters and digits of any script are kept; spaces,
 * punctuation, quotes, slashes and emoji become single hyphens, so nothing of a path or a header gets
 * through. The server sends it (with an ASCII spelling beside it, lib/attachment-header.ts) and the web saves under it.
 */
export function catalogFileName(fullName: string): string {
  const slug = [
    ...fullName
      .normalize('NFC')
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, ''),
  ]
    .slice(0, 60)
    .join('')
    .replace(/-+$/, '');
  return `katalog-${slug || 'saljare'}.pdf`;
}
