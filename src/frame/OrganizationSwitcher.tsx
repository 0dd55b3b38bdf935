import { ApartmentOutlined, BankOutlined, ProjectOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Popover, Spin, type TreeDataNode } from 'antd';
import { useState, type ReactNode } from 'react';
import { lazyView } from '../../renderers/runtime/lazyView';
import { readSession } from '../session/storage';
import type { OrganizationNode } from '../session/types';

const PROJECT_ICON = <ProjectOutlined aria-hidden />;
const AREA_ICON = <ApartmentOutlined aria-hidden />;
const OTHER_ICON = <BankOutlined aria-hidden />;

/** SPEC §3: types 3 and 4 and the others have their own icons (one element each, shared by 10,000 nodes). */
export function organizationIcon(type: number): ReactNode {
  if (type === 3) return PROJECT_ICON;
  if (type === 4) return AREA_ICON;
  return OTHER_ICON;
}

/** The nodes whose name contains the keyword, with their ancestors (and all nodes when empty). */
export function filterOrganizations(nodes: readonly OrganizationNode[], keyword: string): { tree: TreeDataNode[]; expanded: string[] } {
  const expanded: string[] = [];
  const wanted = keyword.trim().toLowerCase();
  const walk = (list: readonly OrganizationNode[]): TreeDataNode[] =>
    list.flatMap((node) => {
      const children = walk(node.children ?? []);
      const hit = !wanted || node.organizationName.toLowerCase().includes(wanted) || node.organizationCode.toLowerCase() === wanted;
      if (!hit && children.length === 0) return [];
      if (wanted && children.length) expanded.push(node.organizationCode);
      return [
        {
          key: node.organizationCode,
          title: node.organizationName,
          icon: organizationIcon(node.organizationType),
          isLeaf: !node.children?.length,
          children: children.length ? children : undefined,
        },
      ];
    });
  return { tree: walk(nodes), expanded };
}

type FilteredOrganizations = ReturnType<typeof filterOrganizations>;

/** The keys of a tree, depth first, and how many nodes are opened: equal shapes draw the same tree. */
function shapeOf({ tree, expanded }: FilteredOrganizations): string {
  const keys: string[] = [String(expanded.length)];
  const walk = (nodes: readonly TreeDataNode[]) => {
    for (const node of nodes) {
      keys.push(String(node.key));
      if (node.children) walk(node.children);
    }
  };
  walk(tree);
  return keys.join('\n');
}

/** The last filtered tree of each organisation list. */
const lastFiltered = new WeakMap<readonly OrganizationNode[], { shape: string; result: FilteredOrganizations }>();

/**
 * The filtered tree, and the previous one itself when the keyword matches the same nodes: typing
 * on inside a large match ("租" then "租户" over 10,000 nodes) then leaves rc-tree nothing to lay out.
 */
export function filterOrganizationsAgain(organizations: readonly OrganizationNode[], keyword: string): FilteredOrganizations {
  const result = filterOrganizations(organizations, keyword);
  const shape = shapeOf(result);
  const last = lastFiltered.get(organizations);
  if (last?.shape === shape) return last.result;
  lastFiltered.set(organizations, { shape, result });
  return result;
}

// The searchable tree loads when the popover first opens (issue 35: rc-tree and the search box
// were in every page's first paint for a popover most pages never open).
const OrganizationPanel = lazyView(
  () => import('./OrganizationPanel'),
  <div style={{ width: 320, padding: '24px 0', textAlign: 'center' }}>
    <Spin />
  </div>,
);

interface Props {
  collapsed: boolean;
  onSwitch: (organizationCode: string) => Promise<void>;
}

/** The organisation switcher (SPEC §2, §4): the current organisation, opening a searchable, virtualised tree. */
export function OrganizationSwitcher({ collapsed, onSwitch }: Props) {
  const [open, setOpen] = useState(false);
  const name = readSession('customName') || '选择组织';
  return (
    <Popover open={open} onOpenChange={setOpen} trigger="click" placement="rightTop" content={<OrganizationPanel onSwitch={onSwitch} onClose={() => setOpen(false)} />} title="切换组织">
      <Button type="text" block style={{ color: 'rgba(255,255,255,0.85)', textAlign: 'left', height: 40, overflow: 'hidden' }} icon={<SwapOutlined aria-hidden />} title={name} data-testid="organization-trigger">
        {collapsed ? null : <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{name}</span>}
      </Button>
    </Popover>
  );
}
