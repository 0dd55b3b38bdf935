import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { consoleCataloguePlugin } from './scripts/consoleCataloguePlugin.ts';
import { consoleChunkGroups } from './scripts/consoleChunks.ts';
import { pageComposePlugin } from './scripts/pageComposePlugin.ts';
import { pageValidatorPlugin } from './scripts/pageValidatorPlugin.ts';

// The console talks to the platform server under /api. In development Vite proxies it to the
// reference server (PLATFORM_API, default http://127.0.0.1:3000); in production the reference
// server serves the built console itself, or any server that answers /api can be put in front.
const platformApi = process.env.PLATFORM_API ?? 'http://127.0.0.1:3000';

/**
 * antd's table filter dropdown (antd Tree, rc-tree, Radio, Dropdown, Empty) loads when a column
 * that filters is first drawn, not with every table (renderers/runtime/lazyFilterDropdown.tsx):
 * antd's filter hook is given the lazy module in its place; the lazy module's own import of the
 * real one resolves as usual.
 */
function lazyTableFilter(): Plugin {
  const lazyModule = fileURLToPath(new URL('./renderers/runtime/lazyFilterDropdown.tsx', import.meta.url));
  return {
    name: 'console-lazy-table-filter',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './FilterDropdown' && importer && /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]index\.js$/.test(importer)) return lazyModule;
      return null;
    },
  };
}

export default defineConfig({
  plugins: [react(), pageComposePlugin(), pageValidatorPlugin(), consoleCataloguePlugin(), lazyTableFilter()],
  resolve: {
    // Every browser the build targets has ResizeObserver (renderers/runtime/nativeResizeObserver.ts).
    alias: [{ find: /^resize-observer-polyfill$/, replacement: fileURLToPath(new URL('./renderers/runtime/nativeResizeObserver.ts', import.meta.url)) }],
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.CONSOLE_PORT ?? 5173),
    proxy: {
      '/api': { target: platformApi, changeOrigin: true },
      '/files': { target: platformApi, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    manifest: true,
    rolldownOptions: {
      output: {
        // One chunk per set of first paints that need a module (scripts/consoleChunks.ts): a list
        // page fetched 107 files of a few hundred bytes each; a group takes only the modules it
        // names (not their imports), so no route loads what it does not use.
        codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: consoleChunkGroups(), debugName: 'console-chunks' }] },
      },
    },
  },
});
