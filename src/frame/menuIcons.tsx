import AntdIcon from '@ant-design/icons/es/components/AntdIcon';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { useSyncExternalStore } from 'react';
import { ChunkLoadError, loadChunk } from '../../renderers/runtime/chunks';
import { reportError } from '../../renderers/runtime/errorReporter';

type IconSet = typeof import('./menuIconSet');
type IconSeed = typeof import('./menuIconSeed');
type Icon = IconDefinition;

/**
 * Menu icons (`resourceIcon`): the names the console can draw come from their own chunk,
 * `menuIconSet.tsx`, asked for as soon as the frame's code runs (it usually arrives before the
 * menu does: the menu waits for `auth/web/_init`); each icon is its own chunk, fetched when an
 * entry that shows it is first drawn. Until then an entry shows an empty square of the icon's size.
 */
let iconSet: IconSet | null = null;
let loading: Promise<IconSet> | null = null;
/** The seed's icon of each resource code, for rows whose own icon the console cannot draw. */
let iconSeed: IconSeed | null = null;
let seedLoading: Promise<IconSeed> | null = null;
const icons = new Map<string, Icon>();
const iconsLoading = new Map<string, Promise<Icon>>();
/** Bumped whenever the set or an icon arrives: the drawn entries look again. */
let version = 0;
const listeners = new Set<() => void>();

function changed(): void {
  version += 1;
  listeners.forEach((listener) => listener());
}

/** Loads the set of names once (a failed load is tried again on the next call). */
function loadIconSet(): Promise<IconSet> {
  loading ??= loadChunk(() => import('./menuIconSet')).then(
    (module) => {
      iconSet = module;
      changed();
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Loads the seed's icons by code once (a failed load is tried again when a row needs it again). */
function loadIconSeed(): Promise<IconSeed> {
  seedLoading ??= loadChunk(() => import('./menuIconSeed')).then(
    (module) => {
      iconSeed = module;
      changed();
      return module;
    },
    (error: unknown) => {
      seedLoading = null;
      throw error;
    },
  );
  return seedLoading;
}

/** Loads one icon of the set once (a failed load is tried again when the entry is drawn again). */
function loadIcon(set: IconSet, name: string): Promise<Icon> {
  let pending = iconsLoading.get(name);
  if (!pending) {
    pending = loadChunk(set.MENU_ICONS[name]).then(
      (module) => {
        icons.set(name, module.default);
        changed();
        return module.default;
      },
      (error: unknown) => {
        iconsLoading.delete(name);
        throw error;
      },
    );
    iconsLoading.set(name, pending);
  }
  return pending;
}

/** Loads the set, the seed's icons by code and every icon, so that any entry draws at once (the tests). */
export async function loadMenuIcons(): Promise<IconSet> {
  const set = await loadIconSet();
  await Promise.all([loadIconSeed(), ...Object.keys(set.MENU_ICONS).map((name) => loadIcon(set, name))]);
  return set;
}

/** A chunk that failed to load leaves the placeholders (the next frame render asks again); anything else is reported. */
function unlessChunkFailure(error: unknown): void {
  if (!(error instanceof ChunkLoadError)) reportError(error, '菜单图标');
}

loadIconSet().catch(unlessChunkFailure);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const currentVersion = () => version;

const placeholder = <span className="anticon" aria-hidden style={{ width: '1em', height: '1em' }} />;

/**
 * A menu entry's icon: the resource's own `resourceIcon` when the console can draw it, otherwise
 * the icon schemas/menus.json gives its resource code (a database seeded before the entry had an
 * icon keeps an empty one: the catalogue sync never rewrites a present row), otherwise the
 * generic one.
 */
export function MenuIcon({ name, code }: { name?: string | null; code?: string | null }) {
  useSyncExternalStore(subscribe, currentVersion, currentVersion);
  if (!iconSet) {
    if (!loading) loadIconSet().catch(unlessChunkFailure);
    return placeholder;
  }
  // A row's own icon when the console draws it; else its code's icon in the seed, loaded for it.
  const iconName = iconSet.ownMenuIcon(name) ?? iconSeed?.menuIconName(name, code);
  if (!iconName) {
    loadIconSeed().catch(unlessChunkFailure);
    return placeholder;
  }
  const icon = icons.get(iconName);
  if (!icon) {
    loadIcon(iconSet, iconName).catch(unlessChunkFailure);
    return placeholder;
  }
  return <AntdIcon icon={icon} aria-hidden />;
}
