import { Button, Empty, Input, Tree, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import { sessionAtom } from '../session/session';
import { readSession } from '../session/storage';
import { filterOrganizationsAgain } from './OrganizationSwitcher';

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

/** The organisation switcher's popover: a searchable, virtualised tree (SPEC §2, §4). */
export default function OrganizationPanel({ onSwitch, onClose }: { onSwitch: (organizationCode: string) => Promise<void>; onClose: () => void }) {
  const session = useAtomValue(sessionAtom);
  const [keyword, setKeyword] = useState('');
  const deferredKeyword = useValueAfterPaint(keyword);
  const [chosen, setChosen] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const [expandedByHand, setExpandedByHand] = useState<string[] | null>(null);
  const organizations = useMemo(() => session?.organizations ?? [], [session]);
  const { tree, expanded } = useMemo(() => filterOrganizationsAgain(organizations, deferredKeyword), [organizations, deferredKeyword]);
  const current = readSession('orgCode');

  const switchTo = useCallback(
    async (code: string) => {
      setSwitching(true);
      try {
        await onSwitch(code);
        onClose();
        setChosen(null);
      } finally {
        setSwitching(false);
      }
    },
    [onSwitch, onClose],
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

  return content;
}
