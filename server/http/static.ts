import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The console page's Content-Security-Policy: scripts only from the console's own origin (no
 * inline script, no eval: schema expressions are evaluated without it), styles inline too (antd
 * writes its CSS-in-JS into style elements), images from itself, data and blob urls, calls only
 * to itself, and framing only by the configured embedding shells.
 */
export function consoleContentSecurityPolicy(embedOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${["'self'", ...embedOrigins].join(' ')}`,
  ].join('; ');
}

/**
 * Serves the built console from `dir`; unknown non-/api GET paths answer its index.html so
 * client-side routes (/login, /device/all …) load the single-page app.
 */
export async function serveConsole(app: FastifyInstance, dir: string, embedOrigins: readonly string[] = []): Promise<void> {
  const root = resolve(dir);
  if (!existsSync(resolve(root, 'index.html'))) throw new Error(`--static ${dir}: no index.html there (run npm run build)`);
  const policy = consoleContentSecurityPolicy(embedOrigins);
  // Every HTML answer is the console page (index.html, also as the client-route fallback).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html') && !reply.hasHeader('content-security-policy')) {
      void reply.header('content-security-policy', policy).header('x-content-type-options', 'nosniff').header('referrer-policy', 'same-origin');
    }
    return payload;
  });
  await app.register(fastifyStatic, {
    root,
    // Hashed assets may be cached for good; index.html must be revalidated.
    cacheControl: false,
    setHeaders: (reply, path) => {
      void reply.header('cache-control', path.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
}
