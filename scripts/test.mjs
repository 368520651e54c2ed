// `npm test`: brings what the tests need (scripts/test-services.mjs), then every check in order
// (typecheck, lint, unit, API on PGlite and on PostgreSQL, build, browser), then one closing line
// with the number of tests passed and failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareTestServices } from './test-services.mjs';

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-test-reports-'));
const services = await prepareTestServices({
  postgresUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
});
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
vitest('api', 'api-postgres', { TEST_DB: 'postgres', TEST_POSTGRES_URL: services.postgresUrl });
if (run('build', 'npm', ['run', 'build', '--silent'])) {
  const output = path.join(reportDir, 'e2e.json');
  run('browser tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: output });
  addPlaywrightCounts(output);
}

services.stop();
console.log(failures.length ? `\nMisslyckades: ${failures.join(', ')}` : '\nAlla steg gick igenom.');
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
