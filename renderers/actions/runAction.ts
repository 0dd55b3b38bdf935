import { makeScope, type Scope } from '../schema/template';
import { conditionHolds } from '../schema/condition';
import type { Action, ChainStep } from '../schema/types';
import { permitted, type RendererServices } from '../services';
import { actionKindOf, type ActionKind, type ActionRuntime, type StepAction } from './actionKinds';

export { conditionHolds };
export { DEFAULT_SUCCESS_MESSAGE, type ActionRuntime, type ShownResult } from './actionKinds';

/** A chain's step refused at its confirmation: the chain stops there, quietly. */
export class ChainDeclined extends Error {
  readonly kind = 'cancelled' as const;
  constructor() {
    super('已取消');
    this.name = 'ChainDeclined';
  }
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
  return makeScope({ ...scope, user: scope.user ?? services.user });
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
    if (kindOf(step.type).answers) result = answer;
  }
  return result;
}

async function askFirst(text: string, danger: boolean | undefined, runtime: ActionRuntime): Promise<boolean> {
  if (runtime.confirm) return runtime.confirm(text, danger);
  return window.confirm(text);
}

/** The registered kind of an action (renderers/actions/actionKinds.ts), or the console's; a page naming another is refused by npm run check. */
function kindOf(type: string): ActionKind<{ type: string }> {
  const kind = actionKindOf(type);
  if (!kind) throw new Error(`未注册的动作类型 ${type}`);
  return kind;
}

async function runStep(action: ChainStep | StepAction, scope: Scope, runtime: ActionRuntime): Promise<unknown> {
  return kindOf(action.type).run(action, scope, runtime);
}
