/**
 * The console's session lives in session storage (SPEC §3): one browser tab, one session.
 * Every key the console stores is named here, so that logout and session-invalid clear them all.
 */
export const SESSION_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  orgCode: 'orgCode',
  projectId: 'projectId',
  tenantCode: 'tenantCode',
  customName: 'customName',
  organizationList: 'organizationList',
  isForeign: 'isForeign',
  selectedMenuKey: 'selectedMenuKey',
} as const;

/**
 * What the console itself keeps for the session beside the keys of SPEC §3 (issue 21); logout and
 * session-invalid clear these too.
 */
export const SESSION_NOTE_KEYS = {
  /** The 您有待确认的卡订单 notice was closed: it stays closed for the rest of the session. */
  cardOrderNoticeDismissed: 'cardOrderNoticeDismissed',
  /** Wrong passwords given on /login per login name, to warn before the attempt that locks. */
  loginFailures: 'loginFailures',
} as const;

export type SessionNoteKey = keyof typeof SESSION_NOTE_KEYS;

export function readSessionNote(key: SessionNoteKey): string | null {
  return store().getItem(SESSION_NOTE_KEYS[key]);
}

export function writeSessionNote(key: SessionNoteKey, value: string | null): void {
  if (value === null || value === '') store().removeItem(SESSION_NOTE_KEYS[key]);
  else store().setItem(SESSION_NOTE_KEYS[key], value);
}

export type SessionKey = keyof typeof SESSION_KEYS;

function store(): Storage {
  return window.sessionStorage;
}

export function readSession(key: SessionKey): string | null {
  return store().getItem(SESSION_KEYS[key]);
}

export function writeSession(key: SessionKey, value: string | null | undefined): void {
  if (value === null || value === undefined || value === '') store().removeItem(SESSION_KEYS[key]);
  else store().setItem(SESSION_KEYS[key], value);
}

export function readSessionJson<T>(key: SessionKey): T | null {
  const raw = readSession(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return null;
  }
}

export function writeSessionJson(key: SessionKey, value: unknown): void {
  writeSession(key, JSON.stringify(value));
}

/** Logout and session-invalid clear every stored key of SPEC §3 and the console's own notes. */
export function clearSession(): void {
  for (const name of [...Object.values(SESSION_KEYS), ...Object.values(SESSION_NOTE_KEYS)]) store().removeItem(name);
}

export function hasToken(): boolean {
  return Boolean(readSession('accessToken'));
}

export function isForeignSession(): boolean {
  return readSession('isForeign') === '1';
}
