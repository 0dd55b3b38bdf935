import { describe, expect, it } from 'vitest';
import { filterOrganizations, filterOrganizationsAgain } from '../../src/frame/OrganizationSwitcher';
import type { OrganizationNode } from '../../src/session/types';

function bigTree(): OrganizationNode[] {
  // 1 tenant, 100 projects, 99 areas each: 10,000 organisations.
  const projects = Array.from({ length: 100 }, (_, p) => ({
    id: `J${p}`,
    organizationCode: `J${p}`,
    organizationName: `项目${p}`,
    organizationType: 3,
    children: Array.from({ length: 99 }, (_, a) => ({ id: `A${p}-${a}`, organizationCode: `A${p}-${a}`, organizationName: `区域${p}-${a}`, organizationType: 4 })),
  }));
  return [{ id: 'T', organizationCode: 'T0001', organizationName: '杭州云联科技有限公司', organizationType: 2, children: projects }];
}

describe('organisation switcher search', () => {
  it('keeps the matching nodes and their ancestors, expanded', () => {
    const { tree, expanded } = filterOrganizations(bigTree(), '区域42-7');
    expect(tree).toHaveLength(1);
    const project = tree[0].children ?? [];
    expect(project.map((n) => n.key)).toEqual(['J42']);
    expect((project[0].children ?? []).map((n) => n.key)).toEqual(['A42-7', 'A42-70', 'A42-71', 'A42-72', 'A42-73', 'A42-74', 'A42-75', 'A42-76', 'A42-77', 'A42-78', 'A42-79']);
    expect(expanded).toEqual(['J42', 'T0001']);
  });

  it('shows everything without a keyword and nothing for a miss', () => {
    const all = filterOrganizations(bigTree(), '');
    expect(all.tree[0].children).toHaveLength(100);
    expect(filterOrganizations(bigTree(), '不存在的组织').tree).toEqual([]);
  });

  it('hands back the same tree while typing on matches the same nodes, so the tree is not laid out again', () => {
    const organizations = bigTree();
    const first = filterOrganizationsAgain(organizations, '区域42-7');
    // "区域42-7" and "42-7" match the same 11 areas: the very same result object.
    expect(filterOrganizationsAgain(organizations, '42-7')).toBe(first);
    const narrower = filterOrganizationsAgain(organizations, '区域42-70');
    expect(narrower).not.toBe(first);
    expect(narrower.tree[0].children?.[0].children?.map((n) => n.key)).toEqual(['A42-70']);
    // Everything matches "区域" and nothing is filtered without a keyword, but only the search opens nodes.
    const searched = filterOrganizationsAgain(organizations, '项目');
    expect(searched.expanded).toEqual(['T0001']);
    const unfiltered = filterOrganizationsAgain(organizations, '');
    expect(unfiltered).not.toBe(searched);
    expect(unfiltered.expanded).toEqual([]);
    // Another organisation list (after a switch) is filtered on its own.
    expect(filterOrganizationsAgain(bigTree(), '42-7')).not.toBe(first);
  });
});
