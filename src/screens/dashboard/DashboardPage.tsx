import { Card, Col, Descriptions, Empty, Row, Statistic, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { MenuIcon } from '../../frame/menuIcons';
import { maskPhone, NO_VALUE } from '../../format/phone';
import { dictionaryLabel } from '../../session/dictionary';
import { flattenMenu, groupsWithEntries } from '../../session/menu';
import { sessionAtom } from '../../session/session';
import { readSession, writeSession } from '../../session/storage';

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/** The landing page: who you are, where you are, and the views you can open. */
export default function DashboardPage() {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const leaves = useMemo(
    () => flattenMenu(session?.menus ?? []).filter((m) => m.isShown !== false && !m.children?.length && m.resourceUrl && m.resourceUrl !== '/dashboard'),
    [session],
  );
  if (!session) return null;
  const { user, dictionaries, menus } = session;
  const groups = groupsWithEntries(menus);

  return (
    <div data-testid="dashboard">
      <Card style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {greeting(new Date().getHours())}，{user.userName || user.loginUserName}
        </Typography.Title>
        <Descriptions column={{ xs: 1, md: 3 }} size="small">
          <Descriptions.Item label="当前组织">{readSession('customName') || NO_VALUE}</Descriptions.Item>
          <Descriptions.Item label="角色">
            {user.roleList.map((role) => (
              <Tag key={role} color="blue">
                {dictionaryLabel(dictionaries, 'role_code', role)}
              </Tag>
            ))}
          </Descriptions.Item>
          <Descriptions.Item label="登录账号">{user.loginUserName}</Descriptions.Item>
          <Descriptions.Item label="手机号">{maskPhone(user.phoneNumber)}</Descriptions.Item>
          <Descriptions.Item label="邮箱">{user.mail || NO_VALUE}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="可用功能" value={leaves.length} suffix="项" />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="功能分组" value={groups.length} suffix="组" />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="所属组织" value={user.orgCodeList.length} suffix="个" />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="角色" value={user.roleList.length} suffix="个" />
          </Card>
        </Col>
      </Row>
      <Card title="快捷入口">
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
