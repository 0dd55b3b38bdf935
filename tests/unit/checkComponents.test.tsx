// npm run check accepts `Base.Member` form components only where the renderer's component has that
// member (each FORM_COMPONENT_KINDS entry's `members`, scripts/check/registered.ts): each listed
// member exists on the registered component.
import { describe, expect, it } from 'vitest';
import { FORM_COMPONENT_KINDS, FORM_COMPONENTS } from '../../renderers/form/formily';

const withMembers = FORM_COMPONENT_KINDS.list().filter(([, kind]) => kind.members?.length);

describe('the form component members npm run check knows', () => {
  it('some entries offer members (Input.TextArea, DatePicker.RangePicker …)', () => {
    expect(withMembers.map(([name]) => name)).toEqual(expect.arrayContaining(['Input', 'DatePicker', 'TimePicker', 'Radio', 'Checkbox']));
  });
  it.each(withMembers)('%s has its members', (base, kind) => {
    const component = FORM_COMPONENTS[base] as unknown as Record<string, unknown> | undefined;
    expect(component, base).toBeDefined();
    for (const member of kind.members ?? []) expect(component?.[member], `${base}.${member}`).toBeTruthy();
  });
});
