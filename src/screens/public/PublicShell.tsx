import { theme } from 'antd';
import type { ReactNode } from 'react';

/**
 * The frame of the public screens: product name on the left, the form panel on the right. The panel
 * is drawn from antd's tokens rather than with antd's Card, which brings Tabs, Menu and Skeleton
 * with it (a quarter of the sign-in page's download, issue 8).
 */
export function PublicShell({ title, children, width = 420 }: { title: string; children: ReactNode; width?: number }) {
  const { token } = theme.useToken();
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 64,
        padding: 24,
        background: 'linear-gradient(135deg, #0b2a5b 0%, #1554ad 55%, #3a8ee6 100%)',
        flexWrap: 'wrap',
      }}
    >
      <div style={{ color: '#fff', maxWidth: 420 }}>
        <h1 style={{ color: '#fff', margin: '0 0 8px', fontSize: 38, fontWeight: 600 }}>物联网设备平台</h1>
        <p style={{ color: 'rgba(255,255,255,0.85)', fontSize: 16, margin: 0 }}>设备监控、告警、工单、固件升级、物联网卡与商城，一个控制台统一管理。</p>
      </div>
      <section
        aria-labelledby="public-panel-title"
        style={{ width, maxWidth: '100%', background: token.colorBgContainer, borderRadius: token.borderRadiusLG, boxShadow: token.boxShadowTertiary }}
      >
        <h2
          id="public-panel-title"
          style={{ margin: 0, padding: `${token.paddingSM}px ${token.paddingLG}px`, fontSize: 18, fontWeight: token.fontWeightStrong, color: token.colorTextHeading, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
        >
          {title}
        </h2>
        <div style={{ padding: token.paddingLG }}>{children}</div>
      </section>
    </div>
  );
}
