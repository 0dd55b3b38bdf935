import { Spin } from 'antd';
import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { loadChunk } from './chunks';
import { ErrorBoundary } from './ErrorBoundary';
import { useFirstPaintHold } from './firstPaint';

/** A screen on its way: it holds back the frame's parts that wait for the page's first paint. */
export function PageLoading() {
  useFirstPaintHold();
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
 * `fallback` stands for the screen while it loads (a page's spinner by default; a popover's part
 * gives a small one).
 */
export function lazyView<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, fallback: ReactNode = <PageLoading />): ComponentType<P> {
  const first = lazy(() => loadChunk(load));
  function LazyScreen(props: P) {
    const [attempt, setAttempt] = useState<{ count: number; Screen: LazyExoticComponent<ComponentType<P>> }>({ count: 0, Screen: first });
    const { Screen } = attempt;
    const retry = () => setAttempt(({ count }) => ({ count: count + 1, Screen: lazy(() => loadChunk(load)) }));
    return (
      <ErrorBoundary key={attempt.count} onRetry={retry}>
        <Suspense fallback={fallback}>
          <Screen {...props} />
        </Suspense>
      </ErrorBoundary>
    );
  }
  return LazyScreen;
}
