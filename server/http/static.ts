import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built console from `dir`; unknown non-/api GET paths answer its index.html so
 * client-side routes (/login, /device/all …) load the single-page app.
 */
export async function serveConsole(app: FastifyInstance, dir: string): Promise<void> {
  const root = resolve(dir);
  if (!existsSync(resolve(root, 'index.html'))) throw new Error(`--static ${dir}: no index.html there (run npm run build)`);
  await app.register(fastifyStatic, {
    root,
    // Hashed assets may be cached for good; index.html must be revalidated.
    cacheControl: false,
    setHeaders: (response, path) => {
      response.setHeader('Cache-Control', path.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
}
