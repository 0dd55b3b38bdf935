import { invalidateAfterChange } from '../data/invalidation';
import { queryClientOf } from '../data/queryClient';
import { resolveTemplate, type Scope } from '../schema/template';
import type { Action, Condition, OpenFormAction } from '../schema/types';
import { permitted, type RendererServices } from '../services';

export interface ActionRuntime {
  services: RendererServices;
  /** Reloads the page's data (the `refresh` action; after a call, what the call changed is reloaded too). */
  refresh: () => void;
  /** Opens a form page in a drawer or a modal. */
  openForm: (action: OpenFormAction, params: Record<string, unknown>) => void;
  /** Export progress (0..1, or null when the size is unknown). */
  onProgress?: (fraction: number | null) => void;
}

/** SPEC §8 wording for a successful save. */
export const DEFAULT_SUCCESS_MESSAGE = '设置成功！';

export function conditionHolds(condition: Condition | undefined, record: Record<string, unknown> | undefined): boolean {
  if (!condition) return true;
  const value = record?.[condition.field] as string | number | boolean | null | undefined;
  if ('equals' in condition && value !== condition.equals) return false;
  if (condition.in && !condition.in.includes(value as string)) return false;
  if (condition.notIn && condition.notIn.includes(value as string)) return false;
  return true;
}

/** Is the action shown: permitted by the route's button list and its condition over the record? */
export function actionVisible(action: Action, buttons: readonly string[], record?: Record<string, unknown>): boolean {
  return permitted(buttons, action.permission) && conditionHolds(action.visibleWhen, record);
}

function withQuery(to: string, query: Record<string, unknown> | undefined): string {
  if (!query) return to;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${to}${to.includes('?') ? '&' : '?'}${text}` : to;
}

/** Runs an action (the confirmation, when it has one, was asked by the button). */
export async function runAction(action: Action, scope: Scope, runtime: ActionRuntime): Promise<void> {
  const { services } = runtime;
  switch (action.type) {
    case 'navigate':
      services.navigate(withQuery(String(resolveTemplate(action.to, scope)), resolveTemplate(action.query, scope) as Record<string, unknown> | undefined));
      return;
    case 'openForm':
      runtime.openForm(action, (resolveTemplate(action.params ?? {}, scope) ?? {}) as Record<string, unknown>);
      return;
    case 'call':
      await services.data.call(action.operation, resolveTemplate(action.param ?? {}, scope));
      services.notify.success(action.successMessage ?? DEFAULT_SUCCESS_MESSAGE);
      // Every open page tab showing what the call changed loads it again (its entity, and what the
      // schema declares), then this page: its own list may be of another entity.
      void invalidateAfterChange(queryClientOf(services), action.operation, action.invalidates);
      runtime.refresh();
      return;
    case 'download': {
      const result = await services.data.download(action.operation, resolveTemplate(action.param ?? {}, scope), {
        onProgress: (fraction) => runtime.onProgress?.(fraction),
      });
      services.notify.success(`已下载 ${result.fileName}`);
      return;
    }
    case 'refresh':
      runtime.refresh();
      return;
  }
}
