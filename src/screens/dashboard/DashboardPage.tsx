import { Card, Col, Empty, Row, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { MenuIcon } from '../../frame/menuIcons';
import { NO_VALUE } from '../../format/phone';
import { dictionaryLabel } from '../../session/dictionary';
import { flattenMenu } from '../../session/menu';
import { sessionAtom } from '../../session/session';
import { readSession, writeSession } from '../../session/storage';
import { HomeFigures, homeKindOf } from './HomeFigures';

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/**
 * 工作台, the landing page: who and where you are, the platform as your role reads it (the fleet,
 * alarms, work and cards of a tenant; your own orders and tasks in the field; the tenants, messages
 * and deliveries of the platform), each figure leading to the list it counts, and below them the
 * views you can open.
 */
export default function DashboardPage() {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const leaves = useMemo(
    () => flattenMenu(session?.menus ?? []).filter((m) => m.isShown !== false && !m.children?.length && m.resourceUrl && m.resourceUrl !== '/dashboard'),
    [session],
  );
  if (!session) return null;
  const { user, dictionaries, menus } = session;

  return (
    <div data-testid="dashboard">
      <Card size="small" styles={{ body: { padding: '12px 16px' } }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 16, rowGap: 4 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {greeting(new Date().getHours())}，{user.userName || user.loginUserName}
          </Typography.Title>
          <Typography.Text type="secondary">{readSession('customName') || NO_VALUE}</Typography.Text>
          <span>
            {user.roleList.map((role) => (
              <Tag key={role}>{dictionaryLabel(dictionaries, 'role_code', role)}</Tag>
            ))}
          </span>
        </div>
      </Card>
      <HomeFigures kind={homeKindOf(user.roleList)} menus={menus} />
      <Card title="快捷入口" size="small" style={{ marginTop: 20 }}>
        {leaves.length === 0 ? (
          <Empty description="暂无可用功能" />
        ) : (
          <Row gutter={[12, 12]}>
            {leaves.slice(0, 24).map((menu) => (
              <Col key={menu.resourceCode} xs={12} sm={8} md={6} lg={4}>
                <Card
                  hoverable
                  size="small"
                  onClick={() => {
                    writeSession('selectedMenuKey', menu.resourceCode);
                    navigate(menu.resourceUrl);
                  }}
                  style={{ textAlign: 'center' }}
                >
                  <div style={{ fontSize: 20, color: '#1677ff' }}>
                    <MenuIcon name={menu.resourceIcon} code={menu.resourceCode} />
                  </div>
                  <div style={{ marginTop: 4 }}>{menu.resourceName}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {dictionaryLabel(dictionaries, 'menu_classification', menu.menuClassificationCode)}
                  </Typography.Text>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Card>
    </div>
  );
}
