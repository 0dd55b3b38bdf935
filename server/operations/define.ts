import type { ServerConfig } from '../config';
import type { Database } from '../db/database';
import type { FileStore } from '../domain/files';
import type { OrganizationRow } from '../domain/organizations';
import type { PlatformEvents } from '../domain/platformEvents';
import { fail } from '../http/envelope';
import type { InstanceRecord } from '../http/operationDurations';

/** A JSON Schema (draft 7, as Fastify's ajv reads it) for an operation's `param`. */
export type ParamSchema = Readonly<Record<string, unknown>>;

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

/** The file size an `upload` operation accepts unless it says otherwise. */
export const DEFAULT_FILE_LIMIT_BYTES = 5 * 1024 * 1024;

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

export interface OperationSpec<P, R> {
  /** Schema of `param`; omitted = an empty object and nothing else. */
  paramSchema?: ParamSchema;
  /** For an `upload` operation: the largest file it takes (DEFAULT_FILE_LIMIT_BYTES). */
  fileLimitBytes?: number;
  handler: (context: OperationContext<P>) => Promise<R>;
  /**
   * Called when the route refuses the input before the handler runs (a NUL character in a text
   * field, issue 18): an operation that keeps a record of every attempt (auth.login's login log)
   * records this one too. `param` is the body's param with every NUL shown as U+FFFD; the refusal
   * ("400") is answered after it whatever it does.
   */
  onRefusedInput?: (refused: RefusedInput) => Promise<void>;
}

/** What onRefusedInput learns of a refused request. */
export interface RefusedInput extends ServerServices {
  param: unknown;
  caller: Caller | null;
  client: { ip: string; userAgent: string };
  now: Date;
  /** The answer's message: "参数错误：loginName（不能包含空字符）". */
  reason: string;
}

/** An implemented operation, its param type erased: the route validated it against the schema. */
export interface OperationDefinition {
  name: string;
  paramSchema: ParamSchema;
  fileLimitBytes: number;
  handler: (context: OperationContext<unknown>) => Promise<unknown>;
  onRefusedInput?: (refused: RefusedInput) => Promise<void>;
}

export const EMPTY_PARAM: ParamSchema = { type: 'object', properties: {}, additionalProperties: false };

/** Implements the catalogued operation `name` (schemas/operations.json gives its path and kind). */
export function defineOperation<P = Record<string, never>, R = unknown>(name: string, spec: OperationSpec<P, R>): OperationDefinition {
  return {
    name,
    paramSchema: spec.paramSchema ?? EMPTY_PARAM,
    fileLimitBytes: spec.fileLimitBytes ?? DEFAULT_FILE_LIMIT_BYTES,
    handler: (context) => spec.handler(context as OperationContext<P>),
    ...(spec.onRefusedInput ? { onRefusedInput: spec.onRefusedInput } : {}),
  };
}

/** The caller of a non-public operation (the route has already answered "301" without one). */
export function callerOf(context: OperationContext<unknown>): Caller {
  if (!context.caller) throw fail.session();
  return context.caller;
}

/** Schema helpers that keep every string bounded. */
export const text = (maxLength: number, minLength = 0): ParamSchema => ({ type: 'string', minLength, maxLength });
export const objectOf = (properties: Record<string, ParamSchema>, required: string[] = []): ParamSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
