// `npm run dev`: the reference server on :3000 and Vite with hot reload on :5173 (proxying /api).
import { spawn } from 'node:child_process';
import { bin, ensureDependencies, root } from './deps.mjs';

ensureDependencies();
const children = [
  spawn(bin('tsx'), ['watch', 'server/main.ts', '--dev', '--port', process.env.PORT ?? '3000'], { cwd: root, stdio: 'inherit' }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
