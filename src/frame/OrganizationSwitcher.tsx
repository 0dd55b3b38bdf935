import { ApartmentOutlined, BankOutlined, ProjectOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Popover, Tree, Typography, type TreeDataNode } from 'antd';
import { useAtomValue } from 'jotai';
import { useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { sessionAtom } from '../session/session';
import { readSession } from '../session/storage';
import type { OrganizationNode } from '../session/types';

/** SPEC §3: types 3 and 4 and the others have their own icons. */
export function organizationIcon(type: number): ReactNode {
  if (type === 3) return <ProjectOutlined />;
  if (type === 4) return <ApartmentOutlined />;
  return <BankOutlined />;
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

/** The organisation switcher popover: a searchable, virtualised tree (SPEC §2, §4). */
export function OrganizationSwitcher({ collapsed, onSwitch }: Props) {
  const session = useAtomValue(sessionAtom);
  const [open, setOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  const deferredKeyword = useDeferredValue(keyword);
  const [chosen, setChosen] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const [expandedByHand, setExpandedByHand] = useState<string[] | null>(null);
  const organizations = useMemo(() => session?.organizations ?? [], [session]);
  const { tree, expanded } = useMemo(() => filterOrganizations(organizations, deferredKeyword), [organizations, deferredKeyword]);
  const current = readSession('orgCode');
  const name = readSession('customName') || '选择组织';

  const switchTo = async (code: string) => {
    setSwitching(true);
    try {
      await onSwitch(code);
      setOpen(false);
      setChosen(null);
    } finally {
      setSwitching(false);
    }
  };

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
        <Tree
          showIcon
          blockNode
          virtual
          height={360}
          treeData={tree}
          selectedKeys={chosen ? [chosen] : current ? [current] : []}
          expandedKeys={expandedByHand ?? (deferredKeyword ? expanded : undefined)}
          defaultExpandedKeys={current ? [current] : []}
          onExpand={(keys) => setExpandedByHand(keys.map(String))}
          onSelect={(_keys, info) => {
            const code = String(info.node.key);
            if (info.node.isLeaf) void switchTo(code);
            else setChosen(code);
          }}
        />
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
      <Button type="text" block style={{ color: 'rgba(255,255,255,0.85)', textAlign: 'left', height: 40, overflow: 'hidden' }} icon={<SwapOutlined />} title={name} data-testid="organization-trigger">
        {collapsed ? null : <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{name}</span>}
      </Button>
    </Popover>
  );
}
