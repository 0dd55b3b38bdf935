/**
 * The browser's own ResizeObserver, standing in for `resize-observer-polyfill` in the production
 * build (vite.config.ts): rc-resize-observer, under antd's tables, tabs and menus, imports the
 * polyfill, which every browser the build targets (ES2022) makes unnecessary: 2.5 KiB gzip off
 * every first paint (issue 35). The polyfill's default export is the class, as this is.
 */
const NativeResizeObserver: typeof ResizeObserver = globalThis.ResizeObserver;
export default NativeResizeObserver;
