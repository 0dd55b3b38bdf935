// `npm run check`: the type check, lint and the checks of schemas/, side by side (each is
// single-threaded), each one's output printed whole once it ends; fails when any fails.
import { spawn } from 'node:child_process';
import { bin, root } from './deps.mjs';

const CHECKS = [
  ['类型检查', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['代码规范', bin('eslint'), ['--max-warnings', '0', '.']],
  ['页面模式检查', bin('tsx'), ['scripts/check.ts']],
];

function runCheck([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output }));
  });
}

const results = await Promise.all(CHECKS.map(runCheck));
for (const { name, code, output } of results) {
  const text = output.trim();
  console.log(`${code === 0 ? '✓' : '✖'} ${name}${text ? `\n${text}` : ''}`);
}
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
