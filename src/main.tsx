import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { renderWhere, reportError } from '../renderers/runtime/errorReporter';
import { App } from './app/App';
import './app/global.css';

// What React catches (a boundary's error) or cannot (an error above every boundary) goes to the
// renderer's one reporter, logged once with the page (src/app/errorReporting.ts), not again by React.
createRoot(document.getElementById('root') as HTMLElement, {
  onCaughtError: (error, info) => reportError(error, renderWhere(info.componentStack)),
  onUncaughtError: (error, info) => reportError(error, renderWhere(info.componentStack)),
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
