import type { Queryable } from '../db/database';
import { organizationsWithin } from '../domain/organizations';
import { findUserById, USER_STATUS } from '../domain/users';
import { fail } from '../http/envelope';
import type { Caller } from '../operations/define';
import { findSessionByAccessToken } from './tokens';

/** The caller behind an access token, or null when the token is missing, unknown or expired. */
export async function authenticate(db: Queryable, accessToken: string | undefined, now: Date): Promise<Caller | null> {
  if (!accessToken) return null;
  const session = await findSessionByAccessToken(db, accessToken, now);
  if (!session) return null;
  const user = await findUserById(db, session.userId);
  if (!user || user.status !== USER_STATUS.active) return null;
  const accessible = await organizationsWithin(db, user.organizationCodes);
  return {
    userId: user.id,
    userCode: user.code,
    loginName: user.loginName,
    sessionId: session.sessionId,
    roles: user.roles,
    organizationCodes: user.organizationCodes,
    accessibleOrganizationCodes: accessible.map((org) => org.code),
  };
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
  const rows = await db.query<{ code: string }>(
    `SELECT r.code FROM resource r JOIN role_resource g ON g.resource_code = r.code
      WHERE r.kind = 'button' AND r.url = $1 AND g.role_code = ANY($2::text[]) LIMIT 1`,
    [operationName, caller.roles],
  );
  return rows.length > 0;
}
