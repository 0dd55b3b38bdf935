import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { pageComposePlugin } from '../pageComposePlugin.ts';
import { pageValidatorPlugin } from '../pageValidatorPlugin.ts';

// The benchmark pages (scripts/bench/app): the console's own renderer and hand-written antd
// baselines side by side, built for production like the console: page files composed (their
// `$ref`s resolved) before they are validated, as the console's own build does.
export default defineConfig({
  root: fileURLToPath(new URL('./app', import.meta.url)),
  base: './',
  plugins: [react(), pageComposePlugin(), pageValidatorPlugin()],
  build: { target: 'es2022', outDir: fileURLToPath(new URL('../../.bench/app', import.meta.url)), emptyOutDir: true, chunkSizeWarningLimit: 4000 },
  logLevel: 'warn',
});
