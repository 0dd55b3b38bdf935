import { invalidateAfterChange } from '../data/invalidation';
import { queryClientOf } from '../data/queryClient';
import { makeScope, resolveTemplate, type Scope } from '../schema/template';
import { conditionHolds } from '../schema/condition';
import type { Action, ChainStep, Column, OpenFormAction, OpenPageAction } from '../schema/types';
import { permitted, type RendererServices } from '../services';

export { conditionHolds };

export interface ActionRuntime {
  services: RendererServices;
  /** Reloads the page's data (the `refresh` action; after a call, what the call changed is reloaded too). */
  refresh: () => void;
  /** Opens a page (a form, or any kind) in a drawer or a modal. */
  openForm: (action: OpenFormAction | OpenPageAction, params: Record<string, unknown>) => void;
  /** Shows a value in a dialog; settles when it is closed (the page host's; a notice without one). */
  showResult?: (shown: ShownResult) => Promise<void>;
  /** Asks before a chain's step that says `confirm`; true to go on (the page host's dialog). */
  confirm?: (text: string, danger?: boolean) => Promise<boolean>;
  /** Export progress (0..1, or null when the size is unknown). */
  onProgress?: (fraction: number | null) => void;
}

/** What a showResult step shows. */
export interface ShownResult {
  title: string;
  message?: string;
  value: unknown;
  fields?: Column[];
}

/** A chain's step refused at its confirmation: the chain stops there, quietly. */
export class ChainDeclined extends Error {
  readonly kind = 'cancelled' as const;
  constructor() {
    super('已取消');
    this.name = 'ChainDeclined';
  }
}

/** SPEC §8 wording for a successful save. */
export const DEFAULT_SUCCESS_MESSAGE = '设置成功！';

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
  return makeScope({ ...scope, user: scope.user ?? services.user });
}

function withQuery(to: string, query: Record<string, unknown> | undefined): string {
  if (!query) return to;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${to}${to.includes('?') ? '&' : '?'}${text}` : to;
}

/**
 * Runs an action (the confirmation, when it has one, was asked by the button) and answers what it
 * answered: a call's answer, a download's file; a chain's last step's.
 */
export async function runAction(action: Action, given: Scope, runtime: ActionRuntime): Promise<unknown> {
  const scope = actionScope(given, runtime.services);
  if (action.type !== 'chain') return runStep(action, scope, runtime);
  let result: unknown = scope.result;
  for (const step of action.steps) {
    // A step that asks first asks in a dialog; declining stops the chain as a failure would.
    if (step.confirm && !(await askFirst(step.confirm, step.danger, runtime))) throw new ChainDeclined();
    const answer = await runStep(step, { ...scope, result }, runtime);
    if (step.type === 'call' || step.type === 'download' || step.type === 'custom') result = answer;
  }
  return result;
}

async function askFirst(text: string, danger: boolean | undefined, runtime: ActionRuntime): Promise<boolean> {
  if (runtime.confirm) return runtime.confirm(text, danger);
  return window.confirm(text);
}

async function runStep(action: ChainStep | Exclude<Action, { type: 'chain' }>, scope: Scope, runtime: ActionRuntime): Promise<unknown> {
  const { services } = runtime;
  switch (action.type) {
    case 'navigate':
      services.navigate(withQuery(String(resolveTemplate(action.to, scope)), resolveTemplate(action.query, scope) as Record<string, unknown> | undefined));
      return undefined;
    case 'openForm':
    case 'openPage':
      runtime.openForm({ ...action, label: action.label ?? '' }, (resolveTemplate(action.params ?? {}, scope) ?? {}) as Record<string, unknown>);
      return undefined;
    case 'call': {
      const answer = await services.data.call(action.operation, resolveTemplate(action.param ?? {}, scope));
      services.notify.success(action.successMessage ?? DEFAULT_SUCCESS_MESSAGE);
      // Every open page tab showing what the call changed loads it again (its entity, and what the
      // schema declares), then this page: its own list may be of another entity.
      void invalidateAfterChange(queryClientOf(services), action.operation, action.invalidates);
      runtime.refresh();
      return answer;
    }
    case 'download': {
      const result = await services.data.download(action.operation, resolveTemplate(action.param ?? {}, scope), {
        onProgress: (fraction) => runtime.onProgress?.(fraction),
      });
      services.notify.success(`已下载 ${result.fileName}`);
      return result;
    }
    case 'refresh':
      runtime.refresh();
      return undefined;
    case 'custom': {
      const handler = services.actions?.[action.name];
      // A page naming an action nobody registered is a programming error (npm run check names it).
      if (!handler) throw new Error(`未注册的操作 ${action.name}`);
      const params = (resolveTemplate(action.params ?? {}, scope) ?? {}) as Record<string, unknown>;
      return await handler(params, { scope, services, refresh: runtime.refresh });
    }
    case 'showResult': {
      const shown: ShownResult = {
        title: action.title ?? action.label ?? '结果',
        message: action.message,
        value: resolveTemplate(action.value ?? '{{result}}', scope),
        fields: action.fields,
      };
      if (runtime.showResult) await runtime.showResult(shown);
      else services.notify.info(`${shown.title}：${typeof shown.value === 'object' ? JSON.stringify(shown.value) : String(shown.value ?? '')}`);
      return undefined;
    }
  }
}
