/**
 * The personal catalogue's file name, "Elsa Åberg-Öst" → "katalog-elsa-aberg-ost.pdf": plain
 * ASCII, safe in a Content-Disposition header. The server sends it and the web saves under it.
 */
export function catalogFileName(fullName: string): string {
  const slug = fullName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `katalog-${slug || 'saljare'}.pdf`;
}
