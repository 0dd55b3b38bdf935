import { BookOutlined, FundProjectionScreenOutlined, WalletOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useNavigate } from 'react-router-dom';
import { readSession } from '../session/storage';

/** SPEC §6: the tenant-type roles whose big-screen link carries the token. */
export const TENANT_ROLES = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT'];
export const BIG_SCREEN_PATH = '/big-screen';
export const LANDING_PATH = '/';
export const MANUAL_URL = '/manual/index.html';

/** SPEC §6: a data board carrying the token for tenant-type roles, the plain landing page otherwise. */
export function bigScreenUrl(roles: readonly string[], token: string | null): string {
  if (token && roles.some((role) => TENANT_ROLES.includes(role))) return `${BIG_SCREEN_PATH}?dlmToken=${encodeURIComponent(token)}`;
  return LANDING_PATH;
}

/** The big-screen link, the operation manual and, for the tenant admin, my orders (SPEC §2, §6). */
export function TopBarLinks({ roles }: { roles: readonly string[] }) {
  const navigate = useNavigate();
  return (
    <>
      <Tooltip title="个人大屏">
        <Button type="text" icon={<FundProjectionScreenOutlined />} href={bigScreenUrl(roles, readSession('accessToken'))} target="_blank" rel="noopener" aria-label="个人大屏" />
      </Tooltip>
      <Tooltip title="操作手册">
        <Button type="text" icon={<BookOutlined />} href={MANUAL_URL} target="_blank" rel="noopener" aria-label="操作手册" />
      </Tooltip>
      {roles.includes('TENANT_ADMIN') && (
        <Tooltip title="我的订单">
          <Button type="text" icon={<WalletOutlined />} onClick={() => navigate('/my/order')} aria-label="我的订单" data-testid="my-orders" />
        </Tooltip>
      )}
    </>
  );
}
