// `npm test`: every check in order (typecheck, lint, unit, API on PGlite and on PostgreSQL,
// build, browser), then one closing line with the number of tests passed and failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-test-reports-'));
const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const counts = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failures.push(label);
  return result.status === 0;
}

function addVitestCounts(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + report.numTodoTests;
}

function addPlaywrightCounts(file) {
  if (!fs.existsSync(file)) return;
  const { stats } = JSON.parse(fs.readFileSync(file, 'utf8'));
  counts.passed += stats.expected + stats.flaky;
  counts.failed += stats.unexpected;
  counts.skipped += stats.skipped;
}

async function postgresReachable() {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const vitest = (project, name, env = {}) => {
  const output = path.join(reportDir, `${name}.json`);
  run(
    `${name} tests`,
    'npx',
    ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
    env,
  );
  addVitestCounts(output);
};

run('typecheck', 'npm', ['run', 'typecheck', '--silent']);
run('lint', 'npm', ['run', 'lint', '--silent']);
vitest('unit', 'unit');
vitest('api', 'api-pglite', { TEST_DB: 'pglite' });
if (await postgresReachable()) {
  vitest('api', 'api-postgres', { TEST_DB: 'postgres', TEST_POSTGRES_URL: postgresUrl });
} else if (process.env.CI) {
  console.log(`\nPostgreSQL på ${postgresUrl} svarar inte: CI kräver båda databaserna.`);
  failures.push('PostgreSQL unreachable');
} else {
  console.log(`\nPostgreSQL på ${postgresUrl} svarar inte: API-testerna kördes bara på PGlite.`);
}
if (run('build', 'npm', ['run', 'build', '--silent'])) {
  const output = path.join(reportDir, 'e2e.json');
  run('browser tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: output });
  addPlaywrightCounts(output);
}

console.log(failures.length ? `\nMisslyckades: ${failures.join(', ')}` : '\nAlla steg gick igenom.');
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
