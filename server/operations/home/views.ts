import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';

/**
 * Which of `views` the caller's menus hold (a menu entry whose view file it is, granted to one of
 * the caller's roles): a home page shows a figure only to those who may open the list it counts,
 * and answers "403" 无权限访问 when they may open none of them.
 */
export async function grantedViews<V extends string>(context: OperationContext<unknown>, views: readonly V[]): Promise<ReadonlySet<V>> {
  const rows = await context.db.query<{ view: V }>(
    `SELECT DISTINCT r.view FROM resource r JOIN role_resource g ON g.resource_code = r.code
      WHERE r.kind = 'menu' AND r.view = ANY($1::text[]) AND g.role_code = ANY($2::text[])`,
    [views, callerOf(context).roles],
  );
  const granted = new Set(rows.map((row) => row.view));
  if (granted.size === 0) throw fail.forbidden();
  return granted;
}

/** `read()` when the caller holds `view`, else null (the section is not shown). */
export function whenGranted<V extends string, T>(granted: ReadonlySet<V>, view: V, read: () => Promise<T>): Promise<T | null> {
  return granted.has(view) ? read() : Promise.resolve(null);
}
