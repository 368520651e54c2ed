/**
 * A dump made by a newer pg_dump opens with session settings an older server does not know:
 * PGlite's (PostgreSQL 17) writes `SET transaction_timeout = 0;`, which PostgreSQL 15 refuses
 * (`unrecognized configuration parameter`), and psql stops there. The settings only relax
 * timeouts and the like for the session loading the dump, so one the server does not have is
 * left out; everything after the header (schema and data) is left exactly as it is.
 */
export function withoutUnknownSettings(dump: string, knownSettings: ReadonlySet<string>): { dump: string; removed: string[] } {
  const lines = dump.split('\n');
  const removed: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // The header: comments, blank lines, SET and set_config, until the first statement of the schema.
    if (line === '' || line.startsWith('--') || /^SELECT pg_catalog\.set_config\(/.test(line)) continue;
    const setting = /^SET ([A-Za-z_][A-Za-z0-9_.]*) = .*;$/.exec(line);
    if (!setting) break;
    if (!knownSettings.has(setting[1]!.toLowerCase())) {
      removed.push(setting[1]!);
      lines[i] = `-- ${line} (${setting[1]} finns inte i den här PostgreSQL-versionen)`;
    }
  }
  return { dump: lines.join('\n'), removed };
}
