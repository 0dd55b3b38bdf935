import { useEffect, useState, type ComponentType } from 'react';
import { ChunkLoadError, loadChunk } from '../../renderers/runtime/chunks';
import { reportError } from '../../renderers/runtime/errorReporter';
import { afterFirstPaint } from '../../renderers/runtime/firstPaint';

/** What stands for a deferred part until it has loaded: `onActivate` (a click, a hover) asks for it at once. */
export type Placeholder<P> = ComponentType<P & { onActivate: () => void }>;

/**
 * A part of the frame that the page's first paint does not need (issue 35): its chunk is asked for
 * once the page has painted (renderers/runtime/firstPaint.ts), or at once when the user reaches
 * for its placeholder, which looks like the part and stands in its place until then. A chunk that
 * fails to load leaves the placeholder, and the next hover or click asks again.
 */
export function deferredPart<P extends object>(load: () => Promise<ComponentType<P>>, Stand: Placeholder<P>, what: string): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const listeners = new Set<(part: ComponentType<P>) => void>();
  const ask = () => {
    loading ??= loadChunk(load).then(
      (part) => {
        loaded = part;
        listeners.forEach((listener) => listener(part));
        return part;
      },
      (error: unknown) => {
        loading = null;
        if (!(error instanceof ChunkLoadError)) reportError(error, what);
        throw error;
      },
    );
    loading.catch(() => undefined);
  };

  function DeferredPart(props: P) {
    const [Part, setPart] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (Part) return;
      const arrived = (part: ComponentType<P>) => setPart(() => part);
      listeners.add(arrived);
      let alive = true;
      void afterFirstPaint().then(() => alive && ask());
      return () => {
        alive = false;
        listeners.delete(arrived);
      };
    }, [Part]);
    return Part ? <Part {...props} /> : <Stand {...props} onActivate={ask} />;
  }
  return DeferredPart;
}
