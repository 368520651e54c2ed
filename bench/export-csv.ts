/**
 * The CSV export of the 100 000-line group, downloaded whole over HTTP while the server's resident
 * memory is sampled from /proc every 10 ms. Growth is the peak during the download over the
 * memory just before it.
 */
export interface CsvFigures {
  lines: number;
  megabytes: number;
  seconds: number;
  memoryGrowthMb: number;
}

export async function measureCsvExport(
  url: string,
  options: { groupId: number; token: string; rss: () => number; runs: number },
): Promise<CsvFigures> {
  const runs: CsvFigures[] = [];
  for (let run = 0; run < options.runs; run++) {
    const before = options.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, options.rss())), 10);
    const start = performance.now();
    const response = await fetch(`${url}/api/admin/group/${options.groupId}/export`, {
      headers: { authorization: `Bearer ${options.token}` },
    });
    if (response.status !== 200) throw new Error(`CSV-exporten svarade ${response.status}: ${await response.text()}`);
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, options.rss());
    // One header line; every record ends in CRLF.
    runs.push({ lines: newlines - 1, megabytes: bytes / 1e6, seconds, memoryGrowthMb: (peak - before) / 1024 / 1024 });
  }
  const bySeconds = [...runs].sort((a, b) => a.seconds - b.seconds);
  return {
    ...bySeconds[Math.floor(bySeconds.length / 2)]!,
    memoryGrowthMb: Math.max(...runs.map((run) => run.memoryGrowthMb)),
  };
}
