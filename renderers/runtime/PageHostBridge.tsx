import { useLayoutEffect } from 'react';
import { useFormHost, type PageHost } from '../form/FormHost';

/**
 * The page host's drawers and dialogs (renderers/form/FormHost.tsx), mounted by `useLazyPageHost`
 * once a page first opens a form or asks something: it hands the host's functions back after
 * every render and draws the host's drawer or dialog where the page put it.
 */
export default function PageHostBridge({ onSaved, bind }: { onSaved: () => void; bind: (host: PageHost) => void }) {
  const host = useFormHost(onSaved);
  useLayoutEffect(() => bind(host));
  return host.host;
}
