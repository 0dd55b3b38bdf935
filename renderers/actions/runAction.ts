import { invalidateAfterChange } from '../data/invalidation';
import { queryClientOf } from '../data/queryClient';
import { makeScope, resolveTemplate, type Scope } from '../schema/template';
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

/**
 * Does a condition hold over the scope: an expression's value is truthy, or the record's field
 * matches (`{ field, equals | in | notIn }`). No condition holds.
 */
export function conditionHolds(condition: Condition | undefined, scope: Scope): boolean {
  if (condition === undefined) return true;
  if (typeof condition === 'string') return Boolean(resolveTemplate(condition, scope));
  const record = scope.record as Record<string, unknown> | undefined;
  const value = record?.[condition.field] as string | number | boolean | null | undefined;
  if ('equals' in condition && value !== condition.equals) return false;
  if (condition.in && !condition.in.includes(value as string)) return false;
  if (condition.notIn && condition.notIn.includes(value as string)) return false;
  return true;
}

/** Is the action shown: permitted by the route's button list and its `visibleWhen` holding over the scope? */
export function actionVisible(action: Action, buttons: readonly string[], scope: Scope): boolean {
  return permitted(buttons, action.permission) && conditionHolds(action.visibleWhen, scope);
}

/** Is the action shown disabled: its `disabledWhen` holds over the scope. */
export function actionDisabled(action: Action, scope: Scope): boolean {
  return action.disabledWhen !== undefined && conditionHolds(action.disabledWhen, scope);
}

/** The action's scope: what its button was given, with the signed-in user, every root present. */
export function actionScope(scope: Scope, services: RendererServices): Scope {
  return makeScope({ user: services.user, ...scope });
}

function withQuery(to: string, query: Record<string, unknown> | undefined): string {
  if (!query) return to;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${to}${to.includes('?') ? '&' : '?'}${text}` : to;
}

/** Runs an action (the confirmation, when it has one, was asked by the button). */
export async function runAction(action: Action, given: Scope, runtime: ActionRuntime): Promise<void> {
  const { services } = runtime;
  const scope = actionScope(given, services);
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
