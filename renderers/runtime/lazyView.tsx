import { Spin } from 'antd';
import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { loadChunk } from './chunks';
import { ErrorBoundary } from './ErrorBoundary';

export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240 }}>
      <Spin size="large" tip="加载中" fullscreen={false}>
        <div style={{ width: 120, height: 80 }} />
      </Spin>
    </div>
  );
}

/**
 * A route-level code-split screen. A chunk that fails to load shows a retry, and the retry
 * imports the chunk again (React.lazy caches a failed import, so each attempt gets a new one).
 */
export function lazyView<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const first = lazy(() => loadChunk(load));
  function LazyScreen(props: P) {
    const [attempt, setAttempt] = useState<{ count: number; Screen: LazyExoticComponent<ComponentType<P>> }>({ count: 0, Screen: first });
    const { Screen } = attempt;
    const retry = () => setAttempt(({ count }) => ({ count: count + 1, Screen: lazy(() => loadChunk(load)) }));
    return (
      <ErrorBoundary key={attempt.count} onRetry={retry}>
        <Suspense fallback={<PageLoading />}>
          <Screen {...props} />
        </Suspense>
      </ErrorBoundary>
    );
  }
  return LazyScreen;
}
