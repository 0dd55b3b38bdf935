import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PageAddressContext, type PageAddress } from '../../renderers/list/listAddress';
import PageRenderer from '../../renderers/PageRenderer';
import { RendererContext, type RendererServices } from '../../renderers/services';
import { api } from '../api/client';
import { toldApi } from '../api/failures';
import { onReconnected } from '../api/connectivity';
import { notify } from '../api/notifier';
import { onLiveEvent } from '../live/liveEvents';
import { consoleFiles } from '../format/fileTicket';
import { FORMATS } from '../format/formats';
import { dictionaryColour, dictionaryLabel } from '../session/dictionary';
import { sessionAtom } from '../session/session';
import type { MenuResource } from '../session/types';
import { NAMED_VALIDATORS } from '../validation/named';
import { reachedByTraversal } from '../app/historyMoves';
import { consoleQueries } from './consoleQueries';
import { CONSOLE_ACTIONS } from './actions';
import { CONSOLE_WIDGETS } from './widgets';

/** The frame's live stream (src/live), as the renderer subscribes to it. */
const LIVE_FEED: RendererServices['live'] = { subscribe: onLiveEvent };

/** The renderer's providers, bound to the console's client, session and router. */
export function useRendererServices(menu: MenuResource | undefined, buttonsOverride?: readonly string[]): RendererServices {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  return useMemo<RendererServices>(() => {
    const dictionaries = session?.dictionaries ?? {};
    return {
      // Calls outside the cache (actions, submits, downloads, uploads) tell their failures; the
      // cache's queries use the client as it is and the cache tells (src/api/failures.ts).
      data: toldApi,
      transport: api,
      dictionaries: {
        label: (dictType, value) => dictionaryLabel(dictionaries, dictType, value),
        colour: (dictType, value) => dictionaryColour(dictionaries, dictType, value),
        options: (dictType) => (dictionaries[dictType]?.children ?? []).map((item) => ({ value: item.dictValue, label: item.dictLabel })),
      },
      notify,
      buttons: buttonsOverride ?? (menu?.buttonList ?? []).map((button) => button.resourceUrl),
      navigate: (to) => navigate(to),
      validators: NAMED_VALIDATORS,
      formats: FORMATS,
      files: consoleFiles,
      reconnected: onReconnected,
      live: LIVE_FEED,
      queries: consoleQueries,
      user: session ? { ...session.user } : undefined,
      widgets: CONSOLE_WIDGETS,
      actions: CONSOLE_ACTIONS,
    };
  }, [session, menu, navigate, buttonsOverride]);
}

/**
 * Where a page of this route keeps its state: the address's fragment (`/device/all#deviceCode=abc&page=2`).
 * Not the query: the page tabs key a tab by path and query (one tab per detail record), so a list
 * writing its page into the query would open a second tab of itself; and the query is the route's
 * `params`, which templates read. Written only while this route is what the address shows: a hidden
 * kept-alive tab renders at its own remembered location and never moves the current one.
 */
function usePageAddress(): PageAddress {
  const location = useLocation();
  const navigate = useNavigate();
  const { pathname, search, hash, key } = location;
  // Worked out once per entry: a hidden tab renders its remembered location again and again, as
  // a new object each time, long after the browser has moved on.
  const { entry, arrival } = useMemo(() => ({ entry: key === 'default' ? `default:${hash}` : key, arrival: reachedByTraversal(key) ? ('traversal' as const) : ('visit' as const) }), [key, hash]);
  return useMemo<PageAddress>(
    () => ({
      state: hash.replace(/^#/, ''),
      entry,
      arrival,
      write: (state, mode) => {
        if (window.location.pathname !== pathname || window.location.search !== search) return;
        navigate({ pathname, search, hash: state ? `#${state}` : '' }, { replace: mode === 'replace', preventScrollReset: true });
      },
    }),
    [pathname, search, hash, entry, arrival, navigate],
  );
}

/** A menu view rendered from its page schema, with the route's query as `params`. */
export function ConsolePage({ view, menu, schema, buttons }: { view: string; menu: MenuResource | undefined; schema?: unknown; buttons?: readonly string[] }) {
  const services = useRendererServices(menu, buttons);
  const { search } = useLocation();
  const params = useMemo(() => Object.fromEntries(new URLSearchParams(search)), [search]);
  const address = usePageAddress();
  return (
    <RendererContext.Provider value={services}>
      <PageAddressContext.Provider value={address}>
        <PageRenderer key={view} view={view} params={params} schema={schema} />
      </PageAddressContext.Provider>
    </RendererContext.Provider>
  );
}
