/**
 * The name a download is saved under: the server's `filename*` (the name as written, UTF-8,
 * RFC 6266/8187), else its plain `filename`, else the name the caller expected. The server's
 * name wins because it is the name the file is: 'katalog-Łucja.pdf' (issue 32 point 3).
 */
export function downloadName(contentDisposition: string | null, expected: string): string {
  if (!contentDisposition) return expected;
  const extended = /(?:^|;)\s*filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(contentDisposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed percent sequence: the plain name below will do.
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(contentDisposition);
  if (plain) return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!;
  return expected;
}
