import { Navigate, type RouteObject } from 'react-router-dom';
import { lazyView } from '../../renderers/runtime/lazyView';

const DashboardPage = lazyView(() => import('../screens/dashboard/DashboardPage'));
const MenuView = lazyView(() => import('../frame/MenuView'));
const LayoutPage = lazyView(() => import('../frame/LayoutPage'));
const PlaygroundPage = lazyView(() => import('../screens/playground/PlaygroundPage'));
const NotFoundPage = lazyView(() => import('../screens/public/NotFoundPage'));

/** Hand-written layout paths of SPEC §2 (their screens arrive with their issues). */
export const LAYOUT_PAGES: ReadonlyArray<{ path: string; title: string; view: string }> = [
  { path: '/gateway/details', title: '网关详情', view: 'gateway/details' },
  { path: '/dynamic/form/:formType/config', title: '动态表单模板设置', view: 'dynamic/form/config' },
  { path: '/my/order', title: '我的订单', view: 'system/myOrder?buttons=none' },
  { path: '/card/order/user', title: '待确认卡订单', view: 'card/order/user' },
  { path: '/system/daily/read', title: '日常阅读', view: 'system/notices?tab=daily' },
  { path: '/system/message', title: '系统消息', view: 'system/notices?tab=system' },
];

export const PLAYGROUND_PATH = '/playground';
/** A path no menu, layout page or screen knows: said inside the frame, whose menu leads on. */
export const NOT_FOUND_PATH = '/404';
export const NOT_FOUND_TITLE = '页面不存在';

/**
 * The pages inside the main frame. The frame renders them itself, once per open tab, so that a
 * cached tab keeps its page mounted while another tab is shown.
 */
export const layoutChildren: RouteObject[] = [
  { index: true, element: <Navigate to="/dashboard" replace /> },
  { path: 'dashboard', element: <DashboardPage /> },
  { path: 'playground', element: <PlaygroundPage /> },
  { path: NOT_FOUND_PATH, element: <NotFoundPage /> },
  ...LAYOUT_PAGES.map(({ path, title, view }) => ({ path, element: <LayoutPage title={title} view={view} /> })),
  // Menu routes come from the server at run time: any other path is looked up in the menu.
  { path: '*', element: <MenuView /> },
];
