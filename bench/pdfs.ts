/**
 * The catalogue PDF (a seller's personal catalogue: twelve products, a third with pictures, the
 * QR code of the link) and a payout PDF (a 30-seller group's payout, every settled line), each
 * fetched over HTTP one at a time as a person would: milliseconds from request to last byte.
 */
export interface PdfFigures {
  p50: number;
  p95: number;
  kilobytes: number;
  runs: number;
}

export async function measurePdf(url: string, options: { paths: string[]; tokens: string[]; runs: number }): Promise<PdfFigures> {
  const fetchOne = async (i: number) => {
    const response = await fetch(url + options.paths[i % options.paths.length], {
      headers: { authorization: `Bearer ${options.tokens[i % options.tokens.length]}` },
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200 || body.subarray(0, 5).toString() !== '%PDF-') {
      throw new Error(`${options.paths[i % options.paths.length]} svarade ${response.status}: ${body.subarray(0, 200).toString()}`);
    }
    return body.length;
  };
  for (let i = 0; i < 3; i++) await fetchOne(i);
  const timings: number[] = [];
  let bytes = 0;
  for (let i = 0; i < options.runs; i++) {
    const start = performance.now();
    bytes = await fetchOne(i);
    timings.push(performance.now() - start);
  }
  timings.sort((a, b) => a - b);
  const at = (share: number) => timings[Math.min(timings.length - 1, Math.floor(share * timings.length))]!;
  return { p50: at(0.5), p95: at(0.95), kilobytes: bytes / 1024, runs: options.runs };
}
