import { Drawer, Segmented } from 'antd';
import type { ReactNode } from 'react';

interface Props {
  open: boolean;
  onClose: () => void;
  width: number;
  /** The product name and the organisation switcher. */
  head: ReactNode;
  /** The menu of the chosen group. */
  menu: ReactNode;
  groups: readonly string[];
  group: string;
  groupLabel: (code: string) => string;
  onGroup: (code: string) => void;
}

/**
 * The narrow frame's menu (below antd's `md` breakpoint the sider is a drawer opened from the top
 * bar), with a segmented choice of the menu's group over it. Its own chunk, loaded when it is
 * first opened: a wide frame never draws it (issue 35).
 */
export default function MenuDrawer({ open, onClose, width, head, menu, groups, group, groupLabel, onGroup }: Props) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      width={width}
      closable={false}
      title={null}
      styles={{ body: { padding: 0, background: '#001529' } }}
      rootClassName="frame-menu-drawer"
      aria-label="功能菜单"
    >
      <div data-testid="frame-sider">
        {head}
        <div style={{ padding: '0 8px 8px' }}>
          <Segmented
            size="small"
            aria-label="菜单分组"
            value={group}
            onChange={(key) => onGroup(String(key))}
            options={groups.map((code) => ({ value: code, label: groupLabel(code), title: groupLabel(code) }))}
            data-testid="menu-groups"
          />
        </div>
        {menu}
      </div>
    </Drawer>
  );
}
