import { BookOutlined, EllipsisOutlined, FundProjectionScreenOutlined, WalletOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tooltip, type MenuProps } from 'antd';
import { useNavigate } from 'react-router-dom';
import { readSession } from '../session/storage';

/** SPEC §6: the tenant-type roles whose big-screen link carries the token. */
export const TENANT_ROLES = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT'];
export const BIG_SCREEN_PATH = '/big-screen';
export const LANDING_PATH = '/';
export const MANUAL_URL = '/manual/index.html';
export const MY_ORDERS_PATH = '/my/order';
/** The label of the menu the narrow top bar folds its links into. */
export const FOLDED_LINKS_LABEL = '更多功能';

/** SPEC §6: a data board carrying the token for tenant-type roles, the plain landing page otherwise. */
export function bigScreenUrl(roles: readonly string[], token: string | null): string {
  if (token && roles.some((role) => TENANT_ROLES.includes(role))) return `${BIG_SCREEN_PATH}?dlmToken=${encodeURIComponent(token)}`;
  return LANDING_PATH;
}

/**
 * The big-screen link, the operation manual and, for the tenant admin, my orders (SPEC §2, §6).
 * `folded` (a narrow frame): one 更多功能 menu holds them, so that the user menu stays on screen.
 */
export function TopBarLinks({ roles, folded = false }: { roles: readonly string[]; folded?: boolean }) {
  const navigate = useNavigate();
  const bigScreen = bigScreenUrl(roles, readSession('accessToken'));
  const myOrders = roles.includes('TENANT_ADMIN');
  if (folded) {
    const items: MenuProps['items'] = [
      {
        key: 'bigScreen',
        icon: <FundProjectionScreenOutlined aria-hidden />,
        label: (
          <a href={bigScreen} target="_blank" rel="noopener">
            个人大屏
          </a>
        ),
      },
      {
        key: 'manual',
        icon: <BookOutlined aria-hidden />,
        label: (
          <a href={MANUAL_URL} target="_blank" rel="noopener">
            操作手册
          </a>
        ),
      },
      ...(myOrders ? [{ key: 'myOrders', icon: <WalletOutlined aria-hidden />, label: '我的订单', 'data-testid': 'my-orders' }] : []),
    ];
    return (
      <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => key === 'myOrders' && navigate(MY_ORDERS_PATH) }}>
        <Button type="text" icon={<EllipsisOutlined aria-hidden />} aria-label={FOLDED_LINKS_LABEL} data-testid="top-bar-more" style={{ flex: 'none' }} />
      </Dropdown>
    );
  }
  return (
    <>
      <Tooltip title="个人大屏">
        <Button type="text" icon={<FundProjectionScreenOutlined aria-hidden />} href={bigScreen} target="_blank" rel="noopener" aria-label="个人大屏" />
      </Tooltip>
      <Tooltip title="操作手册">
        <Button type="text" icon={<BookOutlined aria-hidden />} href={MANUAL_URL} target="_blank" rel="noopener" aria-label="操作手册" />
      </Tooltip>
      {myOrders && (
        <Tooltip title="我的订单">
          <Button type="text" icon={<WalletOutlined aria-hidden />} onClick={() => navigate(MY_ORDERS_PATH)} aria-label="我的订单" data-testid="my-orders" />
        </Tooltip>
      )}
    </>
  );
}
