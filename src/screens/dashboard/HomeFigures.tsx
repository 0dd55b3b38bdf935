import { Alert, Button, Card, Empty, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useOperationQuery, type Loaded } from '../../api/data';
import { DataError } from '../../../renderers/data/errors';
import dayjs from '../../../renderers/runtime/dayjs';
import type { MenuResource } from '../../session/types';
import { FieldFigures } from './FieldFigures';
import { PlatformFigures } from './PlatformFigures';
import { TenantFigures } from './TenantFigures';

/**
 * 工作台's figures (issue 34), from the home operation of the caller's kind: the platform's staff,
 * a tenant's staff, or the field staff. They follow the live stream (a device coming online or
 * going offline, an alarm raised or recovered makes them stale: src/live/useLiveConsole.ts) and are
 * asked again every half minute for the readings and the work orders, which the stream does not
 * carry. Loading, a failure (with 重试) and a caller whose menus hold none of the lists are each
 * shown in place; the shortcuts below stay usable whatever happens here.
 */

export type HomeKind = 'platform' | 'tenant' | 'field';

/** Which home a user's roles get. */
export function homeKindOf(roles: readonly string[]): HomeKind {
  if (roles.some((role) => role.startsWith('PLATFORM_'))) return 'platform';
  if (roles.includes('TENANT_ADMIN') || roles.includes('ROLE_TENANT_ORDINARY')) return 'tenant';
  return 'field';
}

const QUERY = { refetchInterval: 30_000, handlesErrors: true } as const;

function Loading() {
  return (
    <Card size="small" data-testid="home-figures-loading" aria-busy="true">
      <Skeleton active paragraph={{ rows: 3 }} title={false} />
    </Card>
  );
}

/** The figures of one answer, or what stands in for them. */
function Shown<T extends { asOf: string }>({ query, children }: { query: Loaded<T>; children: (data: T) => ReactNode }) {
  if (query.data) {
    return (
      <section data-testid="home-figures" aria-label="工作台概况">
        {children(query.data)}
        <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0', fontSize: 12 }} data-testid="home-figures-as-of">
          数据更新于 {dayjs(query.data.asOf).format('HH:mm:ss')}，设备上下线、告警产生与恢复时自动刷新
        </Typography.Paragraph>
      </section>
    );
  }
  if (query.loading) return <Loading />;
  if (query.failure instanceof DataError && query.failure.code === '403') {
    return <Empty data-testid="home-figures-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description="当前角色没有可概览的列表" />;
  }
  return (
    <Alert
      data-testid="home-figures-error"
      type="error"
      showIcon
      message="概况加载失败"
      description={query.error ?? '系统错误，请联系管理员'}
      action={
        <Button size="small" onClick={query.reload}>
          重试
        </Button>
      }
    />
  );
}

function TenantHome({ menus }: { menus: readonly MenuResource[] }) {
  const query = useOperationQuery('home.tenant.summary', {}, QUERY);
  return <Shown query={query}>{(home) => <TenantFigures home={home} menus={menus} />}</Shown>;
}

function FieldHome({ menus }: { menus: readonly MenuResource[] }) {
  const query = useOperationQuery('home.field.summary', {}, QUERY);
  return <Shown query={query}>{(home) => <FieldFigures home={home} menus={menus} />}</Shown>;
}

function PlatformHome({ menus }: { menus: readonly MenuResource[] }) {
  const query = useOperationQuery('home.platform.summary', {}, QUERY);
  return <Shown query={query}>{(home) => <PlatformFigures home={home} menus={menus} />}</Shown>;
}

export function HomeFigures({ kind, menus }: { kind: HomeKind; menus: readonly MenuResource[] }) {
  if (kind === 'platform') return <PlatformHome menus={menus} />;
  if (kind === 'tenant') return <TenantHome menus={menus} />;
  return <FieldHome menus={menus} />;
}
