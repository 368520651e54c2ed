// `npm test`: brings what the tests need (scripts/test-services.mjs), then every check: typecheck,
// lint, unit, API on PGlite and on PostgreSQL, build, browser. Steps that do not wait for each
// other run side by side (decision 055), each one's output shown whole when it ends; then the time
// each took, and one closing line with the number of tests passed and failed and the time it all took.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { prepareTestServices } from './test-services.mjs';

const started = Date.now();
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-test-reports-'));
const services = await prepareTestServices({
  postgresUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
});
const counts = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Each failed test's file, name and first lines of its error, printed again at the end (CI shows the tail). */
const failedTests = [];
const took = [];

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const minutes = (ms) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** Runs one step with its output kept, and prints that output in one piece when it ends. */
function run(label, command, args, env = {}) {
  const begun = Date.now();
  console.log(`▶ ${label} (efter ${seconds(begun - started)})`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const ms = Date.now() - begun;
      took.push({ label, ms });
      console.log(`\n=== ${label} (${seconds(ms)}) ===`);
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) failures.push(label);
      resolve(code === 0);
    });
  });
}

function addVitestCounts(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + report.numTodoTests;
  for (const file of report.testResults)
    for (const test of file.assertionResults.filter(({ status }) => status === 'failed'))
      failedTests.push({ where: path.relative(process.cwd(), file.name), name: test.fullName, error: test.failureMessages.join('\n') });
  // A file that failed before any test ran (an import, a hook) has no failed test to name.
  for (const file of report.testResults.filter(
    ({ status, assertionResults }) => status === 'failed' && assertionResults.every((test) => test.status !== 'failed'),
  ))
    failedTests.push({ where: path.relative(process.cwd(), file.name), name: '(filen)', error: file.message ?? '' });
}

function addPlaywrightCounts(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { stats } = report;
  counts.passed += stats.expected + stats.flaky;
  counts.failed += stats.unexpected;
  counts.skipped += stats.skipped;
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests.filter(({ status }) => status === 'unexpected'))
        failedTests.push({
          where: `${spec.file}:${spec.line} [${test.projectName}]`,
          name: spec.title,
          error: test.results.map((result) => result.error?.message ?? '').join('\n'),
        });
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  for (const error of report.errors ?? []) failedTests.push({ where: 'playwright', name: '(körningen)', error: error.message ?? '' });
}

const vitest = async (project, name, env = {}, args = []) => {
  const output = path.join(reportDir, `${name}.json`);
  await run(
    `${name} tests`,
    'npx',
    ['vitest', 'run', '--project', project, ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
    env,
  );
  addVitestCounts(output);
};

const browser = async () => {
  if (!(await run('build', 'npm', ['run', 'build', '--silent']))) return;
  const output = path.join(reportDir, 'e2e.json');
  await run('browser tests', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: output,
    // The portals the browser tests drive keep their data in this PostgreSQL (decision 077).
    TEST_POSTGRES_URL: services.postgresUrl,
  });
  addPlaywrightCounts(output);
};

// Two lanes on two cores take the steps from one queue as they come free, the longest first
// (decision 076): whichever of the browser tests and the API tests on PGlite ends first goes on to
// the API tests on PostgreSQL (which wait on the database server part of the time), and the short
// static steps fill the end of both lanes, so neither core waits for the other (decision 060).
// The API tests on PostgreSQL run as two halves of their files (vitest's shards), one in each lane:
// whole, they were the last step, alone on the machine for a minute and a half (decision 078).
const onPostgres = { TEST_DB: 'postgres', TEST_POSTGRES_URL: services.postgresUrl };
const steps = [
  browser,
  () => vitest('api*', 'api-pglite', { TEST_DB: 'pglite' }),
  () => vitest('api*', 'api-postgres-1', onPostgres, ['--shard=1/2']),
  () => vitest('api*', 'api-postgres-2', onPostgres, ['--shard=2/2']),
  () => run('typecheck', 'npm', ['run', 'typecheck', '--silent']),
  () => run('lint', 'npm', ['run', 'lint', '--silent']),
  () => vitest('unit*', 'unit'),
];
const lane = async () => {
  for (let step = steps.shift(); step; step = steps.shift()) await step();
};
await Promise.all([lane(), lane()]);

services.stop();
console.log('\nTid per steg:');
for (const { label, ms } of took) console.log(`  ${label.padEnd(20)} ${seconds(ms).padStart(6)}`);
console.log(failures.length ? `\nMisslyckades: ${failures.join(', ')}` : '\nAlla steg gick igenom.');
// The failed tests once more, each with the start of its error: the step's whole output is far above.
const firstLines = (text) =>
  stripVTControlCharacters(text)
    .split('\n')
    .slice(0, 12)
    .map((line) => `      ${line}`)
    .join('\n');
for (const { where, name, error } of failedTests) console.log(`  ✗ ${where} › ${name}\n${firstLines(error)}`);
console.log(`Tid: ${minutes(Date.now() - started)}`);
// The counts alone on the last line, in the form CI's reader of test runs knows.
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
