import { WarningFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ChunkLoadError } from './chunks';
import { renderWhere, reportError } from './errorReporter';

interface Props {
  children: ReactNode;
  onRetry?: () => void;
}

interface State {
  error: Error | null;
}

/** Never a white page: a screen that fails to load or throws shows what happened and a retry. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  /** What the boundary caught is reported (with the component stack), not only shown. */
  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(error, renderWhere(info.componentStack));
  }

  retry = (): void => {
    this.props.onRetry?.();
    this.setState({ error: null });
  };

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = error instanceof ChunkLoadError;
    // Deliberately light (no antd Result and its illustrations): this is in every page's first paint.
    return (
      <div role="alert" style={{ textAlign: 'center', padding: '48px 24px' }}>
        <WarningFilled style={{ fontSize: 48, color: '#faad14' }} />
        <h3 style={{ margin: '16px 0 8px', fontSize: 20, fontWeight: 500 }}>{chunk ? '页面加载失败' : '页面出错了'}</h3>
        <p style={{ color: 'rgba(0,0,0,0.45)', margin: '0 0 24px' }}>{chunk ? `${error.message}（ChunkLoadError），请检查网络后重试` : error.message}</p>
        <Button type="primary" onClick={this.retry}>
          重试
        </Button>
      </div>
    );
  }
}
