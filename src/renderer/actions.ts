import type { ActionHandler } from '../../renderers/services';

/**
 * Actions the console adds to the renderer's own kinds (RendererServices.actions): a page runs one
 * by its name, which has a dot so that it never meets a built-in's (`{"type": "map.locate",
 * "params": {…}}`), alone or as a chain's step (its answer is the next step's `result`).
 * `npm run check` accepts exactly these names.
 */
export const CONSOLE_ACTIONS: Readonly<Record<string, ActionHandler>> = {};
