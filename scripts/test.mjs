// `npm test`: install what is missing, then every check and test: types, lint, schema checks,
// unit + server + contract tests (Vitest; the server suite twice: on PGlite and on a throw-away
// PostgreSQL cluster), and browser tests (Playwright on Debian's Chromium).
// Ends with one line "N passed, N failed" over all tests.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bin, ensureDependencies, ensureTestPackages, root, run } from './deps.mjs';

ensureDependencies();
// The tests start their own databases: a DATABASE_URL of the user's shell is never handed to them.
delete process.env.DATABASE_URL;
// Debian's Chromium, a CJK font and PostgreSQL: installed here when root with apt-get, else named.
const missingPackages = ensureTestPackages();
const out = join(root, '.tmp');
mkdirSync(out, { recursive: true });
// The seeded demo world, built once per run (below, beside the checks): the server suite's files
// and the browser suite's servers all start from this dump instead of seeding their own
// (tests/server/global-setup.ts builds it when it is missing).
const seededDump = join(out, 'seeded-dump.tar');
for (const file of [seededDump, `${seededDump}.part`]) rmSync(file, { force: true });
const env = { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', SEEDED_DUMP: seededDump };
const failures = [];
/** Each failed test by file and name, repeated at the end of the run. */
const failedNames = [];
let passed = 0;
let failed = 0;

/** How long each step took, printed at the end: CI keeps a whole run under 30 minutes. */
const durations = [];

function step(name, command, args) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const code = run(command, args, env);
  durations.push(`${name} ${Math.round((Date.now() - started) / 1000)} 秒`);
  if (code !== 0) failures.push(name);
  return code;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

// The seeded world is built while the checks run (they leave a core free part of the time).
const seeding = spawn(bin('tsx'), ['scripts/seed-dump.ts', seededDump], { cwd: root, stdio: 'inherit' });
const seeded = new Promise((resolve) => {
  seeding.on('error', () => resolve(1));
  seeding.on('close', (code) => resolve(code ?? 1));
});
step('类型检查与代码规范、页面模式检查 (npm run check)', 'npm', ['run', '-s', 'check']);
// When it failed, the server suite's global setup builds it (and reports what went wrong).
await seeded;

const vitestReport = join(out, 'vitest.json');
rmSync(vitestReport, { force: true });
// Without PostgreSQL's binaries the server suite runs on PGlite only, and the run fails (it says why above).
const withoutPostgres = missingPackages.includes('postgresql');
if (withoutPostgres) failures.push('PostgreSQL 上的服务端测试（缺少 postgresql）');
const projects = withoutPostgres ? ['--project', 'unit', '--project', 'server', '--project', 'contract'] : [];
step('单元、服务端（PGlite 与 PostgreSQL）与契约测试 (vitest)', bin('vitest'), [
  'run',
  ...projects,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
const vitest = readJson(vitestReport);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  // A test file that fails to load has no failed test, but is a failure all the same.
  failed += (vitest.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  // The slowest files, named at the end with the steps' times (the files run side by side).
  const slowest = (vitest.testResults ?? [])
    .filter((file) => file.startTime && file.endTime)
    .map((file) => ({ where: relative(root, file.name), seconds: Math.round((file.endTime - file.startTime) / 1000) }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 8);
  if (slowest.length) durations.push(`最慢的测试文件 ${slowest.map((file) => `${file.where} ${file.seconds} 秒`).join('、')}`);
  // The failed tests are named again at the end: CI shows only the last lines of a long run.
  for (const file of vitest.testResults ?? []) {
    const where = relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (file.status === 'failed' && failedTests.length === 0) failedNames.push(`${where}（未能加载）`);
    for (const test of failedTests) failedNames.push(`${where} › ${test.fullName}`);
  }
} else failed += 1;
if (withoutPostgres) failed += 1;

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`\n✖ 浏览器测试需要 Debian 的 Chromium（${chromium}）：apt-get install -y chromium fonts-wqy-zenhei`);
  failures.push('浏览器测试（缺少 Chromium）');
  failed += 1;
} else {
  const playwrightReport = join(out, 'playwright.json');
  rmSync(playwrightReport, { force: true });
  step('浏览器测试 (playwright)', bin('playwright'), ['test']);
  const report = readJson(playwrightReport);
  if (report?.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        const failedRuns = (spec.tests ?? []).filter((test) => test.status === 'unexpected');
        if (failedRuns.length) failedNames.push(`tests/browser/${spec.file}:${spec.line} › ${spec.title}`);
        // A CI log is all there is of a failure on another machine: the page as it stood (its
        // address and accessibility snapshot, Playwright's error context) goes into it.
        for (const run of failedRuns.flatMap((test) => test.results ?? [])) {
          for (const attachment of run.attachments ?? []) {
            if (attachment.name !== 'error-context' || !attachment.path || !existsSync(attachment.path)) continue;
            const lines = readFileSync(attachment.path, 'utf8').split('\n');
            console.log(`\n── 页面状态 tests/browser/${spec.file}:${spec.line}（${lines.length} 行，前 200 行）──\n${lines.slice(0, 200).join('\n')}`);
          }
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites ?? []) walk(suite);
  } else failed += 1;
}

rmSync(seededDump, { force: true });
console.log('');
if (failedNames.length) console.log(`未通过的测试：\n${failedNames.map((name) => `  ✖ ${name}`).join('\n')}`);
console.log(`各步耗时：${durations.join('；')}`);
if (failures.length) console.log(`未通过的步骤：${failures.join('、')}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length || failed ? 1 : 0);
