import { useSyncExternalStore } from 'react';
import { ChunkLoadError, loadChunk } from '../../renderers/runtime/chunks';
import { reportError } from '../../renderers/runtime/errorReporter';

type IconSet = typeof import('./menuIconSet');

/**
 * Menu icons (`resourceIcon`) come from their own chunk, `menuIconSet.tsx`: about a hundred icons
 * would otherwise weigh on the first paint of every page in the frame. The chunk is asked for as
 * soon as the frame's code runs, so it usually arrives before the menu does (the menu waits for
 * `auth/web/_init`); until then an entry shows an empty square of the icon's size.
 */
let iconSet: IconSet | null = null;
const listeners = new Set<() => void>();
let loading: Promise<IconSet> | null = null;

/** Loads the icon set once (a failed load is tried again on the next call). */
export function loadMenuIcons(): Promise<IconSet> {
  loading ??= loadChunk(() => import('./menuIconSet')).then(
    (module) => {
      iconSet = module;
      listeners.forEach((listener) => listener());
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** A chunk that failed to load leaves the placeholders (the next frame render asks again); anything else is reported. */
function unlessChunkFailure(error: unknown): void {
  if (!(error instanceof ChunkLoadError)) reportError(error, '菜单图标');
}


loadMenuIcons().catch(unlessChunkFailure);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const currentSet = () => iconSet;

/**
 * A menu entry's icon: the resource's own `resourceIcon` when the console can draw it, otherwise
 * the icon schemas/menus.json gives its resource code (a database seeded before the entry had an
 * icon keeps an empty one: the catalogue sync never rewrites a present row), otherwise the
 * generic one.
 */
export function MenuIcon({ name, code }: { name?: string | null; code?: string | null }) {
  const set = useSyncExternalStore(subscribe, currentSet, currentSet);
  if (!set) {
    if (!loading) loadMenuIcons().catch(unlessChunkFailure);
    return <span className="anticon" aria-hidden style={{ width: '1em', height: '1em' }} />;
  }
  const Icon = set.MENU_ICONS[set.menuIconName(name, code)];
  return <Icon aria-hidden />;
}
