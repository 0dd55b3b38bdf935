import type { ServerConfig } from '../config';
import type { Database } from '../db/database';
import type { FileStore } from '../domain/files';
import type { OrganizationRow } from '../domain/organizations';
import type { PlatformEvents } from '../domain/platformEvents';
import { fail } from '../http/envelope';
import type { InstanceRecord } from '../http/operationDurations';

/**
 * The request context and the services every layer above the core is handed (issue 32): the
 * signed-in caller, the paging of a list, the uploaded file, and the database, configuration,
 * files and metrics of the instance. `http/`, `security/`, `ingest/`, `live/` and every business
 * area under `operations/` reach them here, below all of them.
 */

/** The signed-in user behind a request. */
export interface Caller {
  userId: number;
  userCode: string;
  loginName: string;
  sessionId: number;
  roles: string[];
  /** The organisations the user belongs to, in order. */
  organizationCodes: string[];
  /** Those organisations and all their descendants. */
  accessibleOrganizationCodes: string[];
  /** The same organisations with their type and parent, ordered by (sort, id): a list's scope is found in them without a query. */
  accessibleOrganizations: readonly OrganizationRow[];
  /**
   * Whose each accessible organisation is, for the log line of a call (issue 24): the tenant at or
   * above it, or the platform's code above the tenants. Read with the rights, so a call costs no query.
   */
  tenantOfOrganization: ReadonlyMap<string, string>;
  /** What the user's own record says now, read with the session on every call (not cached with the rights). */
  profile: CallerProfile;
}

/** The caller's own display fields, as auth.init answers them. */
export interface CallerProfile {
  userName: string;
  phone: string | null;
  mail: string | null;
  needModifyPassword: boolean;
}

export interface PageRequest {
  pageNumber: number;
  pageSize: number;
  sortParamList: Array<{ field: string; order: 'asc' | 'desc' }>;
}

export interface ServerServices {
  db: Database;
  config: ServerConfig;
  /** A line for the operator's log (never a token, password or code). */
  log: (message: string) => void;
  /** Puts the database back to the freshly seeded state (dev.reset). */
  resetToSeed: () => Promise<void>;
  /** Where uploaded files are kept (served read-only under /files/). */
  files: FileStore;
  /** The key file tickets are signed with (domain/fileAccess.ts), the same on every instance. */
  fileSecret: Buffer;
  /** This instance: when it started and how long its calls took (system.status). */
  instance: InstanceRecord;
  /** What the operator's metrics count besides the calls (sign-in refusals, codes, exports). */
  events: PlatformEvents;
}

/** The file of an `upload` operation (multipart field `file`), read whole within its limit. */
export interface UploadedFile {
  /** The name the client gave it (never trusted for its type). */
  fileName: string;
  content: Buffer;
}

export interface OperationContext<P> extends ServerServices {
  param: P;
  /** The paging of a `page` operation, null otherwise. */
  page: PageRequest | null;
  /** The caller, when a valid token came with the request (always, for non-public operations). */
  caller: Caller | null;
  /** The selected organisation (header `orgCode`, checked against the caller's scope). */
  organizationCode: string | null;
  client: { ip: string; userAgent: string };
  /** The request time (config.now() when it arrived). */
  now: Date;
  /** The uploaded file of an `upload` operation; null when none came (and for other kinds). */
  file: UploadedFile | null;
}

/** The caller of a non-public operation (the route has already answered "301" without one). */
export function callerOf(context: OperationContext<unknown>): Caller {
  if (!context.caller) throw fail.session();
  return context.caller;
}
