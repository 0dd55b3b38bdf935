// npm run check accepts `Base.Member` form components only where the renderer's component has that
// member (scripts/check.ts FORM_SUB_COMPONENTS): each listed member exists on the registered component.
import { describe, expect, it } from 'vitest';
import { FORM_COMPONENTS } from '../../renderers/form/formily';
import { FORM_SUB_COMPONENTS } from '../../scripts/check';

describe('the form component members npm run check knows', () => {
  it.each(Object.entries(FORM_SUB_COMPONENTS))('%s has %j', (base, members) => {
    const component = (FORM_COMPONENTS as Record<string, unknown>)[base] as Record<string, unknown> | undefined;
    expect(component, base).toBeDefined();
    for (const member of members) expect(component?.[member], `${base}.${member}`).toBeTruthy();
  });
});
