import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import PageRenderer from '../../renderers/PageRenderer';
import { RendererContext, type RendererServices } from '../../renderers/services';
import { api } from '../api/client';
import { onReconnected } from '../api/connectivity';
import { notify } from '../api/notifier';
import { fileUrl, FORMATS } from '../format/formats';
import { dictionaryLabel } from '../session/dictionary';
import { sessionAtom } from '../session/session';
import type { MenuResource } from '../session/types';
import { NAMED_VALIDATORS } from '../validation/named';

/** The renderer's providers, bound to the console's client, session and router. */
export function useRendererServices(menu: MenuResource | undefined, buttonsOverride?: readonly string[]): RendererServices {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  return useMemo<RendererServices>(() => {
    const dictionaries = session?.dictionaries ?? {};
    return {
      data: api,
      dictionaries: {
        label: (dictType, value) => dictionaryLabel(dictionaries, dictType, value),
        options: (dictType) => (dictionaries[dictType]?.children ?? []).map((item) => ({ value: item.dictValue, label: item.dictLabel })),
      },
      notify,
      buttons: buttonsOverride ?? (menu?.buttonList ?? []).map((button) => button.resourceUrl),
      navigate: (to) => navigate(to),
      validators: NAMED_VALIDATORS,
      formats: FORMATS,
      fileUrl,
      reconnected: onReconnected,
    };
  }, [session, menu, navigate, buttonsOverride]);
}

/** A menu view rendered from its page schema, with the route's query as `params`. */
export function ConsolePage({ view, menu, schema, buttons }: { view: string; menu: MenuResource | undefined; schema?: unknown; buttons?: readonly string[] }) {
  const services = useRendererServices(menu, buttons);
  const { search } = useLocation();
  const params = useMemo(() => Object.fromEntries(new URLSearchParams(search)), [search]);
  return (
    <RendererContext.Provider value={services}>
      <PageRenderer key={view} view={view} params={params} schema={schema} />
    </RendererContext.Provider>
  );
}
