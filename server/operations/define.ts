import type { ServerConfig } from '../config';
import type { Database } from '../db/database';
import type { FileStore } from '../domain/files';
import { fail } from '../http/envelope';

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
}

/** An implemented operation, its param type erased: the route validated it against the schema. */
export interface OperationDefinition {
  name: string;
  paramSchema: ParamSchema;
  fileLimitBytes: number;
  handler: (context: OperationContext<unknown>) => Promise<unknown>;
}

export const EMPTY_PARAM: ParamSchema = { type: 'object', properties: {}, additionalProperties: false };

/** Implements the catalogued operation `name` (schemas/operations.json gives its path and kind). */
export function defineOperation<P = Record<string, never>, R = unknown>(name: string, spec: OperationSpec<P, R>): OperationDefinition {
  return {
    name,
    paramSchema: spec.paramSchema ?? EMPTY_PARAM,
    fileLimitBytes: spec.fileLimitBytes ?? DEFAULT_FILE_LIMIT_BYTES,
    handler: (context) => spec.handler(context as OperationContext<P>),
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
