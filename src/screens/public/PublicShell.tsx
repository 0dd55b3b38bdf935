import { Card } from 'antd';
import type { ReactNode } from 'react';

/** The frame of the public screens: product name on the left, the form card on the right. */
export function PublicShell({ title, children, width = 420 }: { title: string; children: ReactNode; width?: number }) {
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
      <Card title={title} style={{ width, maxWidth: '100%' }} styles={{ header: { fontSize: 18 } }}>
        {children}
      </Card>
    </div>
  );
}
