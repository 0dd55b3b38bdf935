import { ApartmentOutlined, BankOutlined, ProjectOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Popover, Tree, Typography, type TreeDataNode } from 'antd';
import { useAtomValue } from 'jotai';
import { startTransition, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { sessionAtom } from '../session/session';
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

interface Props {
  collapsed: boolean;
  onSwitch: (organizationCode: string) => Promise<void>;
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

/**
 * The value once the frame that shows its change has been painted, as a transition: filtering
 * 10,000 organisations then never holds back the character just typed. React's deferred value
 * could start that work before the frame, and its longest step (rc-tree laying out the tree) is
 * not interruptible.
 */
function useValueAfterPaint<T>(value: T): T {
  const [painted, setPainted] = useState(value);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(value)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [value]);
  return painted;
}

/** The organisation switcher popover: a searchable, virtualised tree (SPEC §2, §4). */
export function OrganizationSwitcher({ collapsed, onSwitch }: Props) {
  const session = useAtomValue(sessionAtom);
  const [open, setOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  const deferredKeyword = useValueAfterPaint(keyword);
  const [chosen, setChosen] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const [expandedByHand, setExpandedByHand] = useState<string[] | null>(null);
  const organizations = useMemo(() => session?.organizations ?? [], [session]);
  const { tree, expanded } = useMemo(() => filterOrganizationsAgain(organizations, deferredKeyword), [organizations, deferredKeyword]);
  const current = readSession('orgCode');
  const name = readSession('customName') || '选择组织';

  const switchTo = useCallback(
    async (code: string) => {
      setSwitching(true);
      try {
        await onSwitch(code);
        setOpen(false);
        setChosen(null);
      } finally {
        setSwitching(false);
      }
    },
    [onSwitch],
  );

  // The same element while a keystroke only changes the search box: the tree is drawn again when
  // the deferred keyword has filtered it, not once more for every character typed.
  const expandedKeys = expandedByHand ?? (deferredKeyword ? expanded : undefined);
  const selected = chosen ?? current;
  const treeView = useMemo(
    () => (
      <Tree
        showIcon
        blockNode
        virtual
        height={360}
        treeData={tree}
        selectedKeys={selected ? [selected] : []}
        expandedKeys={expandedKeys}
        defaultExpandedKeys={current ? [current] : []}
        onExpand={(keys) => setExpandedByHand(keys.map(String))}
        onSelect={(_keys, info) => {
          const code = String(info.node.key);
          if (info.node.isLeaf) void switchTo(code);
          else setChosen(code);
        }}
      />
    ),
    [tree, selected, expandedKeys, current, switchTo],
  );

  const content = (
    <div style={{ width: 320 }} data-testid="organization-switcher">
      <Input.Search
        allowClear
        placeholder="搜索组织"
        aria-label="搜索组织"
        value={keyword}
        onChange={(event) => {
          setKeyword(event.target.value);
          setExpandedByHand(null);
        }}
        style={{ marginBottom: 8 }}
      />
      {tree.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的组织" />
      ) : (
        treeView
      )}
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginTop: 8 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          选择末级组织即切换；选择上级组织后点确认
        </Typography.Text>
        <Button type="primary" size="small" disabled={!chosen} loading={switching} onClick={() => chosen && void switchTo(chosen)}>
          确认
        </Button>
      </div>
    </div>
  );

  return (
    <Popover open={open} onOpenChange={setOpen} trigger="click" placement="rightTop" content={content} title="切换组织">
      <Button type="text" block style={{ color: 'rgba(255,255,255,0.85)', textAlign: 'left', height: 40, overflow: 'hidden' }} icon={<SwapOutlined aria-hidden />} title={name} data-testid="organization-trigger">
        {collapsed ? null : <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{name}</span>}
      </Button>
    </Popover>
  );
}
