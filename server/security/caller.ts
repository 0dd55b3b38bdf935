import type { Queryable } from '../db/database';
import { ORGANIZATION_TYPE, organizationsWithin, tenantOrPlatformOf, type OrganizationRow } from '../domain/organizations';
import { findUserById, USER_STATUS } from '../domain/users';
import { fail } from '../http/envelope';
import type { Caller, CallerProfile } from '../core/context';
import { sha256 } from './tokens';

/** A user's rights as read at one authorisation generation (migration 025). */
interface Rights {
  generation: string;
  caller: Omit<Caller, 'sessionId' | 'profile'>;
  /** The button operations the user's roles hold. */
  buttons: ReadonlySet<string>;
}

/** Rights read per database (a process may serve several: the tests do), by user id. */
const rightsCache = new WeakMap<Queryable, Map<number, Rights>>();
/** Enough for every active user of a large platform; past it the cache starts over. */
const RIGHTS_CACHE_LIMIT = 20_000;

/** Forgets every user's rights read from `db` (after the development seed was put back). */
export function forgetRights(db: Queryable): void {
  rightsCache.delete(db);
}

async function readRights(db: Queryable, userId: number, generation: string): Promise<Rights | null> {
  const user = await findUserById(db, userId);
  if (!user || user.status !== USER_STATUS.active) return null;
  const [accessible, buttons] = await Promise.all([
    organizationsWithin(db, user.organizationCodes),
    db.query<{ url: string }>(
      `SELECT DISTINCT r.url FROM resource r JOIN role_resource g ON g.resource_code = r.code
        WHERE r.kind = 'button' AND g.role_code = ANY($1::text[])`,
      [user.roles],
    ),
  ]);
  const tenantOfOrganization = await tenantsOf(db, accessible);
  return {
    generation,
    caller: {
      userId: user.id,
      userCode: user.code,
      loginName: user.loginName,
      roles: user.roles,
      organizationCodes: user.organizationCodes,
      accessibleOrganizationCodes: accessible.map((org) => org.code),
      accessibleOrganizations: accessible,
      tenantOfOrganization,
    },
    buttons: new Set(buttons.map((row) => row.url)),
  };
}

/**
 * The tenant (or, above the tenants, the platform) of each of `organizations`, a closed scope:
 * found inside the scope, and for a scope's root that is no tenant, asked of the database (one
 * query per root; a user belongs to one or two organisations).
 */
async function tenantsOf(db: Queryable, organizations: readonly OrganizationRow[]): Promise<Map<string, string>> {
  const byCode = new Map(organizations.map((org) => [org.code, org]));
  const tenants = new Map<string, string>();
  const rootOwners = new Map<string, string | null>();
  for (const org of organizations) {
    if (org.type === ORGANIZATION_TYPE.tenant || byCode.has(org.parent_code ?? '')) continue;
    rootOwners.set(org.code, org.parent_code ? await tenantOrPlatformOf(db, org.parent_code) : org.code);
  }
  const ownerOf = (org: OrganizationRow): string | null => {
    const known = tenants.get(org.code);
    if (known) return known;
    const parent = org.type === ORGANIZATION_TYPE.tenant ? undefined : byCode.get(org.parent_code ?? '');
    const owner = org.type === ORGANIZATION_TYPE.tenant ? org.code : parent ? ownerOf(parent) : (rootOwners.get(org.code) ?? null);
    if (owner) tenants.set(org.code, owner);
    return owner;
  };
  organizations.forEach(ownerOf);
  return tenants;
}

/**
 * The live session behind an access token and the user's rights. One query per request: the
 * session and the authorisation generation, read together; the rights are read again only when
 * the generation has moved since they were last read.
 */
async function rightsOf(db: Queryable, accessToken: string, now: Date): Promise<{ sessionId: number; profile: CallerProfile; rights: Rights } | null> {
  // The user's display fields come with the session (a join by key): auth.init, asked on every
  // page load, then answers without a query of its own.
  const [session] = await db.query<{ id: number; user_id: number; generation: string; user_name: string; phone: string | null; mail: string | null; need_modify_password: boolean }>(
    `SELECT s.id, s.user_id, COALESCE((SELECT value FROM authorization_generation WHERE id = 1), 0)::text AS generation,
            u.user_name, u.phone, u.mail, u.need_modify_password
       FROM auth_session s JOIN app_user u ON u.id = s.user_id
      WHERE s.access_hash = $1 AND s.revoked_at IS NULL AND s.access_expires_at > $2`,
    [sha256(accessToken), now],
  );
  if (!session) return null;
  const profile: CallerProfile = { userName: session.user_name, phone: session.phone, mail: session.mail, needModifyPassword: session.need_modify_password };
  let users = rightsCache.get(db);
  const known = users?.get(session.user_id);
  if (known?.generation === session.generation) return { sessionId: session.id, profile, rights: known };
  const rights = await readRights(db, session.user_id, session.generation);
  if (!rights) return null;
  if (!users || users.size >= RIGHTS_CACHE_LIMIT) rightsCache.set(db, (users = new Map()));
  users.set(session.user_id, rights);
  return { sessionId: session.id, profile, rights };
}

/** The caller behind an access token, or null when the token is missing, unknown or expired. */
export async function authenticate(db: Queryable, accessToken: string | undefined, now: Date): Promise<Caller | null> {
  if (!accessToken) return null;
  const found = await rightsOf(db, accessToken, now);
  return found ? { ...found.rights.caller, sessionId: found.sessionId, profile: found.profile } : null;
}

/**
 * The organisation a request works in: the `orgCode` header when it lies inside the caller's
 * scope ("403" otherwise), else the caller's first organisation.
 */
export function selectOrganization(caller: Caller, requested: string | undefined): string | null {
  if (requested) {
    if (!caller.accessibleOrganizationCodes.includes(requested)) throw fail.forbidden();
    return requested;
  }
  return caller.organizationCodes[0] ?? null;
}

/** Whether the caller's roles hold the button whose resourceUrl is `operationName`. */
export async function holdsButton(db: Queryable, caller: Caller, operationName: string): Promise<boolean> {
  const rights = rightsCache.get(db)?.get(caller.userId);
  if (rights && sameRoles(rights.caller.roles, caller.roles)) return rights.buttons.has(operationName);
  const rows = await db.query<{ code: string }>(
    `SELECT r.code FROM resource r JOIN role_resource g ON g.resource_code = r.code
      WHERE r.kind = 'button' AND r.url = $1 AND g.role_code = ANY($2::text[]) LIMIT 1`,
    [operationName, caller.roles],
  );
  return rows.length > 0;
}

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((role, index) => role === b[index]);
}

/** The roles an open-platform access key acts with (issue 23): its tenant's administrator's. */
export const ACCESS_KEY_CALLER_ROLES: readonly string[] = ['TENANT_ADMIN'];

/**
 * The caller behind a tenant's open-platform access key (issue 23): no user and no session, the
 * tenant administrator's role over the tenant's whole tree, so every operation of the open subset
 * sees exactly what the tenant's administrator sees there and nothing of another tenant. What it
 * writes is signed `open-api:` and the key's first characters (an alarm's handler, a command's
 * sender). Null when `tenantCode` is no tenant (any more).
 */
export async function accessKeyCaller(db: Queryable, tenantCode: string, accessKey: string): Promise<Caller | null> {
  const accessible = await organizationsWithin(db, [tenantCode]);
  const tenant = accessible.find((org) => org.code === tenantCode);
  if (!tenant || tenant.type !== ORGANIZATION_TYPE.tenant) return null;
  return {
    userId: 0,
    userCode: '',
    loginName: `open-api:${accessKey.slice(0, 11)}`,
    sessionId: 0,
    roles: [...ACCESS_KEY_CALLER_ROLES],
    organizationCodes: [tenantCode],
    accessibleOrganizationCodes: accessible.map((org) => org.code),
    accessibleOrganizations: accessible,
    tenantOfOrganization: await tenantsOf(db, accessible),
    profile: { userName: '开放平台', phone: null, mail: null, needModifyPassword: false },
  };
}
