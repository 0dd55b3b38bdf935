// Temporary (issue 32): the request context moved to server/core/context.ts. Only a file another
// helper has open (ingest/mosquittoAccountSync.ts, committed with this import) still reads it here;
// this file goes once that file's import of core/context.ts is committed.
export type { ServerServices } from '../core/context';
