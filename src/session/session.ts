import { atom, createStore } from 'jotai';
import { consoleQueries } from '../api/cache';
import { api } from '../api/client';
import { fetchOperation } from '../api/data';
import { told } from '../api/failures';
import { typedApi } from '../api/typed';
import { clearSession, readSession, writeSession, writeSessionJson } from './storage';
import type { Dictionary, MenuResource, OrganizationNode, TokenPair, UserInfo } from './types';
import { expectedFailures } from '../../renderers/runtime/errorReporter';

/** SPEC §9: the token-init delay for a token arriving in `dlmToken`. */
export const TOKEN_INIT_DELAY_MS = 500;
/** SPEC §6: menus and routes for the web client. */
export const WEB_CLIENT_TYPE = 1;
/** SPEC §3: organisation type 5 never shows in the tree. */
export const HIDDEN_ORGANIZATION_TYPE = 5;
export const TENANT_ORGANIZATION_TYPE = 2;

export interface Session {
  user: UserInfo;
  menus: MenuResource[];
  dictionaries: Record<string, Dictionary>;
  organizations: OrganizationNode[];
}

/** The initialised session, or null before init and after logout. */
export const sessionAtom = atom<Session | null>(null);

/** One store for the console, so that non-React code (the http client's 301 handler) can reset it. */
export const consoleStore = createStore();

export function currentSession(): Session | null {
  return consoleStore.get(sessionAtom);
}

/** Drops type-5 organisations (and their subtrees) from the tree. */
export function visibleOrganizations(nodes: readonly OrganizationNode[]): OrganizationNode[] {
  return nodes
    .filter((node) => node.organizationType !== HIDDEN_ORGANIZATION_TYPE)
    .map((node) => ({ ...node, children: node.children ? visibleOrganizations(node.children) : undefined }));
}

function findOrganization(nodes: readonly OrganizationNode[], code: string, trail: OrganizationNode[] = []): OrganizationNode[] | null {
  for (const node of nodes) {
    const path = [...trail, node];
    if (node.organizationCode === code) return path;
    const below = node.children ? findOrganization(node.children, code, path) : null;
    if (below) return below;
  }
  return null;
}

/** Stores the selected organisation (orgCode, its name as customName, its tenant). */
export function selectOrganization(organizations: readonly OrganizationNode[], code: string): void {
  const path = findOrganization(organizations, code);
  const node = path?.[path.length - 1];
  writeSession('orgCode', code);
  writeSession('customName', node?.organizationName ?? '');
  const tenant = path?.find((n) => n.organizationType === TENANT_ORGANIZATION_TYPE);
  writeSession('tenantCode', tenant?.organizationCode ?? '');
}

/** What SPEC §4's "init" answers: user info, menu, dictionaries and the organisation tree. */
export interface SessionAnswers {
  user: UserInfo;
  menus: MenuResource[] | null | undefined;
  dictionaries: Dictionary[] | null | undefined;
  organizations: OrganizationNode[] | null | undefined;
}

/** The menu's param of init (the web client's menu). */
export const MENU_PARAM = { clientType: WEB_CLIENT_TYPE } as const;

/**
 * Loads user info, menu, dictionaries and the organisation tree (SPEC §4 "init"), through the
 * console's cache: a failed one is told by its policy (the caller then goes to /login).
 */
export async function initialiseSession(): Promise<Session> {
  const [user, menus, dictionaries, organizations] = await Promise.all([
    fetchOperation('auth.init'),
    fetchOperation('resource.menu.list', MENU_PARAM),
    fetchOperation('dict.tree'),
    fetchOperation('organization.tree'),
  ]);
  return startSession({ user, menus, dictionaries, organizations });
}

/**
 * The session from init's answers (loaded by initialiseSession, or by the route guard's queries):
 * the visible organisations stored, the stored organisation kept when it is still there (else the
 * user's first), and the session set.
 */
export function startSession({ user, menus, dictionaries: dictionaryList, organizations: organizationTree }: SessionAnswers): Session {
  const organizations = visibleOrganizations(organizationTree ?? []);
  writeSessionJson('organizationList', organizations);
  const stored = readSession('orgCode');
  const selectable = stored && findOrganization(organizations, stored) ? stored : (user.orgCodeList?.[0] ?? organizations[0]?.organizationCode);
  if (selectable) selectOrganization(organizations, selectable);
  const dictionaries = Object.fromEntries((dictionaryList ?? []).map((d) => [d.dictType, d]));
  const session: Session = { user, menus: menus ?? [], dictionaries, organizations };
  consoleStore.set(sessionAtom, session);
  return session;
}

/** SPEC §9: the organisation switch delay before the content remounts. */
export const ORGANIZATION_SWITCH_DELAY_MS = 500;

/** Reloads the organisation tree into the session and session storage. */
export async function reloadOrganizations(): Promise<OrganizationNode[]> {
  const organizations = visibleOrganizations((await fetchOperation('organization.tree')) ?? []);
  writeSessionJson('organizationList', organizations);
  const session = consoleStore.get(sessionAtom);
  if (session) consoleStore.set(sessionAtom, { ...session, organizations });
  return organizations;
}

export function storeTokens(tokens: Pick<TokenPair, 'accessToken' | 'refreshToken'>): void {
  writeSession('accessToken', tokens.accessToken);
  writeSession('refreshToken', tokens.refreshToken);
  api.resetSessionLatch();
}

/**
 * Password login, then init. A refused login is not told here: it is a call outside the cache and
 * the sign-in page tells a refusal itself (it stays on the page); init's failures are told.
 */
export async function loginWithPassword(loginName: string, password: string): Promise<Session> {
  const tokens = await typedApi.call('auth.login', { loginName, password });
  endSession();
  storeTokens(tokens);
  return initialiseSession();
}

/** Forgets the session locally: every stored key of SPEC §3 and the in-memory state. */
export function endSession(): void {
  clearSession();
  consoleStore.set(sessionAtom, null);
}

/** Logout: tells the server (best effort) and clears everything. */
export async function logout(): Promise<void> {
  try {
    await told(typedApi.call('auth.logout'));
  } catch (error) {
    expectedFailures('会话')(error);
    /* the session ends locally whatever the server says */
  }
  endSession();
}

/** Marks the forced password change as done in the in-memory session. */
export function markPasswordChanged(): void {
  const session = consoleStore.get(sessionAtom);
  if (session) consoleStore.set(sessionAtom, { ...session, user: { ...session.user, needModifyPassword: false } });
}

/** Whose answers the console's cache holds: the signed-in user in the selected organisation. */
function scopeOf(session: Session | null): string {
  return session ? `${String(session.user.loginUserId)}|${readSession('orgCode') ?? ''}` : '';
}

// Answers are the caller's: another user, another organisation or no session starts an empty cache
// (a switch of organisation remounts the pages, which must not show the last organisation's rows).
let scope = scopeOf(consoleStore.get(sessionAtom));
consoleStore.sub(sessionAtom, () => {
  const next = scopeOf(consoleStore.get(sessionAtom));
  if (next === scope) return;
  scope = next;
  consoleQueries.clear();
});
