import { invalidateAfterChange } from '../data/invalidation';
import { queryClientOf } from '../data/queryClient';
import { Registry } from '../registry';
import { resolveTemplate, type Scope } from '../schema/template';
import type { Action, Column, ConsoleAction, OpenFormAction, OpenPageAction } from '../schema/types';
import type { RendererServices } from '../services';

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

/** SPEC §8 wording for a successful save. */
export const DEFAULT_SUCCESS_MESSAGE = '设置成功！';

/** An action that is one step (a chain is made of these). */
export type StepAction = Exclude<Action, { type: 'chain' }>;

/**
 * One kind of action (navigate, call …): how it runs, and what the rest of the renderer and
 * `npm run check` need to know of it.
 */
export interface ActionKind<A extends { type: string } = StepAction> {
  /** Its answer is the next chain step's `result` (a call's answer, a download's file). */
  answers: boolean;
  /** The fields the renderer resolves as templates over the action's scope (npm run check reads them). */
  templates: readonly string[];
  run(action: A, scope: Scope, runtime: ActionRuntime): unknown;
}

/**
 * The action kinds a page may name (`"type"`): the built-ins below are entries like any other, so
 * adding a kind is one `register` and a test (tests/unit/renderer/actionKinds.test.tsx).
 */
export const ACTION_KINDS = new Registry<ActionKind<{ type: string }>>('动作类型');

/** Registers a built-in kind, typed by the action it runs. */
function builtIn<T extends StepAction['type']>(type: T, kind: ActionKind<Extract<StepAction, { type: T }>>): void {
  ACTION_KINDS.register(type, kind as unknown as ActionKind<{ type: string }>);
}

function withQuery(to: string, query: Record<string, unknown> | undefined): string {
  if (!query) return to;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${to}${to.includes('?') ? '&' : '?'}${text}` : to;
}

builtIn('navigate', {
  answers: false,
  templates: ['to', 'query'],
  run: (action, scope, { services }) => {
    services.navigate(withQuery(String(resolveTemplate(action.to, scope)), resolveTemplate(action.query, scope) as Record<string, unknown> | undefined));
  },
});

const openPage: ActionKind<OpenFormAction | OpenPageAction> = {
  answers: false,
  templates: ['params'],
  run: (action, scope, runtime) => {
    runtime.openForm({ ...action, label: action.label ?? '' }, (resolveTemplate(action.params ?? {}, scope) ?? {}) as Record<string, unknown>);
  },
};
builtIn('openForm', openPage);
builtIn('openPage', openPage);

builtIn('call', {
  answers: true,
  templates: ['param'],
  run: async (action, scope, { services, refresh }) => {
    const answer = await services.data.call(action.operation, resolveTemplate(action.param ?? {}, scope));
    services.notify.success(action.successMessage ?? DEFAULT_SUCCESS_MESSAGE);
    // Every open page tab showing what the call changed loads it again (its entity, and what the
    // schema declares), then this page: its own list may be of another entity.
    void invalidateAfterChange(queryClientOf(services), action.operation, action.invalidates);
    refresh();
    return answer;
  },
});

builtIn('download', {
  answers: true,
  templates: ['param'],
  run: async (action, scope, { services, onProgress }) => {
    const result = await services.data.download(action.operation, resolveTemplate(action.param ?? {}, scope), { onProgress: (fraction) => onProgress?.(fraction) });
    services.notify.success(`已下载 ${result.fileName}`);
    return result;
  },
});

builtIn('refresh', { answers: false, templates: [], run: (_action, _scope, { refresh }) => refresh() });

builtIn('showResult', {
  answers: false,
  templates: ['value'],
  run: async (action, scope, { services, showResult }) => {
    const shown: ShownResult = {
      title: action.title ?? action.label ?? '结果',
      message: action.message,
      value: resolveTemplate(action.value ?? '{{result}}', scope),
      fields: action.fields,
    };
    if (showResult) await showResult(shown);
    else services.notify.info(`${shown.title}：${typeof shown.value === 'object' ? JSON.stringify(shown.value) : String(shown.value ?? '')}`);
  },
});

/** A console's action names itself with a dot (`map.locate`); the built-ins' names have none. */
export const CONSOLE_ACTION_NAME = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/;

/**
 * The kind of every action the console adds (RendererServices.actions, src/renderer/actions.ts),
 * chosen by its `type` like a built-in: its params resolved over the scope, its answer the next
 * chain step's `result`.
 */
export const CONSOLE_ACTION_KIND: ActionKind<ConsoleAction> = {
  answers: true,
  templates: ['params'],
  run: async (action, scope, { services, refresh }) => {
    const handler = services.actions?.[action.type];
    // A page naming an action nobody registered is a programming error (npm run check names it).
    if (!handler) throw new Error(`未注册的操作 ${action.type}`);
    const params = (resolveTemplate(action.params ?? {}, scope) ?? {}) as Record<string, unknown>;
    return await handler(params, { scope, services, refresh });
  },
};

/** The kind an action's `type` names: a built-in (or an entry another module registered), or the console's. */
export function actionKindOf(type: string): ActionKind<{ type: string }> | undefined {
  return ACTION_KINDS.get(type) ?? (CONSOLE_ACTION_NAME.test(type) ? (CONSOLE_ACTION_KIND as unknown as ActionKind<{ type: string }>) : undefined);
}
