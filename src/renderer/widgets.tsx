import type { ComponentType } from 'react';
import type { DashboardWidgetProps } from '../../renderers/services';

/**
 * Dashboard widget types the console adds to the renderer's own (RendererServices.widgets): a
 * page's widget names one by its key here, and `npm run check` accepts exactly these besides the
 * built-in ones. A widget receives its schema entry and its operation's answer; the card around
 * it loads, retries and titles it.
 */
export const CONSOLE_WIDGETS: Readonly<Record<string, ComponentType<DashboardWidgetProps>>> = {};
