/** What the server needs to know besides its database. */
export interface ServerConfig {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Serve the dev-only operations (access "dev"): outbox, simulated WeChat scan, reset. */
  dev: boolean;
  /** A built console to serve, with the SPA fallback to its index.html. */
  staticDir?: string;
  /** Where uploaded files are kept; a temporary folder (removed on close) when absent. */
  fileDir?: string;
  /** The time every expiry is measured against (tests move it forward). */
  now: () => Date;
  /**
   * Origins of the shells allowed to embed the console in a frame ("foreign" mode), from
   * EMBED_ORIGINS (space or comma separated); none = only the console itself.
   */
  embedOrigins: string[];
  /**
   * The AMap web service key (MAPS_KEY): place search and reverse geocoding ask AMap, falling back
   * to the offline gazetteer; without it only the gazetteer answers.
   */
  mapsKey?: string;
  /** A request that takes at least this long is logged as a warning with its path (SLOW_REQUEST_MS). */
  slowRequestMs: number;
}

export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 7200;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 604800;
export const DEFAULT_SLOW_REQUEST_MS = 1000;

function positiveInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** `https://shell.example.com` style origins; anything else is refused at start. */
function origins(raw: string | undefined, name: string): string[] {
  const list = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of list) {
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) throw new Error(`${name}: "${origin}" is not an origin like https://shell.example.com`);
  }
  return list;
}

/** A maps web service key as AMap issues them (letters and digits); anything else is refused at start. */
function mapsKey(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const key = raw.trim();
  if (!/^[A-Za-z0-9]{8,64}$/.test(key)) throw new Error(`${name} must be 8-64 letters or digits`);
  return key;
}

/** The configuration with the environment's token lifetimes (ACCESS_/REFRESH_TOKEN_TTL_SECONDS). */
export function configFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    accessTokenTtlSeconds: positiveInteger(env.ACCESS_TOKEN_TTL_SECONDS, DEFAULT_ACCESS_TOKEN_TTL_SECONDS, 'ACCESS_TOKEN_TTL_SECONDS'),
    refreshTokenTtlSeconds: positiveInteger(env.REFRESH_TOKEN_TTL_SECONDS, DEFAULT_REFRESH_TOKEN_TTL_SECONDS, 'REFRESH_TOKEN_TTL_SECONDS'),
    dev: env.CONSOLE_DEV === '1',
    now: () => new Date(),
    embedOrigins: origins(env.EMBED_ORIGINS, 'EMBED_ORIGINS'),
    mapsKey: mapsKey(env.MAPS_KEY, 'MAPS_KEY'),
    slowRequestMs: positiveInteger(env.SLOW_REQUEST_MS, DEFAULT_SLOW_REQUEST_MS, 'SLOW_REQUEST_MS'),
    ...overrides,
  };
}

export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return configFromEnv({}, overrides);
}
