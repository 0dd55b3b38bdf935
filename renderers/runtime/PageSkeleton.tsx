import { theme } from 'antd';
import { useFirstPaintHold } from './firstPaint';

const ROWS = 8;

const KEYFRAMES = `@keyframes page-skeleton-loading { 0% { background-position: 100% 50%; } 100% { background-position: 0 50%; } }
.page-skeleton-bar { animation: page-skeleton-loading 1.4s ease infinite; }
@media (prefers-reduced-motion: reduce) { .page-skeleton-bar { animation: none; } }`;

/**
 * A page loading: antd's active Skeleton (a title and eight lines) drawn with the theme's tokens,
 * without antd's Skeleton, which was in every page's first paint for this alone (issue 35). It
 * keeps antd's class names, by which the tests and the accessibility crawl tell a page still
 * loading, and holds the frame's later parts back until the page has painted.
 */
export function PageSkeleton() {
  useFirstPaintHold();
  const { token } = theme.useToken();
  const bar = {
    height: token.controlHeight / 2,
    borderRadius: token.borderRadiusSM,
    background: `linear-gradient(90deg, ${token.colorFillContent} 25%, ${token.colorFill} 37%, ${token.colorFillContent} 63%)`,
    backgroundSize: '400% 100%',
  };
  return (
    <div className="ant-skeleton ant-skeleton-active" aria-busy="true" style={{ width: '100%' }}>
      <style>{KEYFRAMES}</style>
      <div className="ant-skeleton-title page-skeleton-bar" style={{ ...bar, width: '38%' }} />
      <ul className="ant-skeleton-paragraph" style={{ padding: 0, margin: `${token.controlHeightSM}px 0 0` }}>
        {Array.from({ length: ROWS }, (_, row) => (
          <li key={row} className="page-skeleton-bar" style={{ ...bar, listStyle: 'none', width: row === ROWS - 1 ? '61%' : '100%', marginTop: row ? token.controlHeightXS : 0 }} />
        ))}
      </ul>
    </div>
  );
}
