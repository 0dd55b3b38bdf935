/**
 * The console's one cache of the platform's answers (src/api/cache.ts), emptied for another user
 * or organisation by src/session/session.ts.
 */
export { consoleQueries } from '../api/cache';
