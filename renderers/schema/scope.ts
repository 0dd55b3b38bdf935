import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import { useRenderer } from '../services';
import { makeScope, resolveTemplate, type Scope, type TemplateScope } from './template';

export { makeScope };

/**
 * What a part of a page offers its templates (a dashboard its route's `params`, a filter form its
 * `values`): the selects inside read it, each provider adding to the one around it.
 */
const TemplateScopeContext = createContext<TemplateScope>({});

export function TemplateScopeProvider({ value, children }: { value: TemplateScope; children?: ReactNode }) {
  const outer = useContext(TemplateScopeContext);
  const merged = useMemo(() => ({ ...outer, ...value }), [outer, value]);
  return createElement(TemplateScopeContext.Provider, { value: merged }, children);
}

/** The scope where a component stands, with the signed-in user. */
export function useTemplateScope(): Scope {
  const { user } = useRenderer();
  const parts = useContext(TemplateScopeContext);
  return useMemo(() => makeScope({ user, ...parts }), [user, parts]);
}

/**
 * A component's param with its templates resolved where it stands (a select's options that follow
 * a form field: `{"parentCode": "{{values.categoryCode}}"}`). The same value while the resolved
 * param is equal, so its query keeps its key.
 */
export function useResolvedParam(param: unknown): unknown {
  const scope = useTemplateScope();
  const text = JSON.stringify(resolveTemplate(param ?? {}, scope) ?? {});
  return useMemo(() => JSON.parse(text) as unknown, [text]);
}
