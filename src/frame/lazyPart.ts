import { useCallback, useState, type ComponentType } from 'react';
import { loadChunk } from '../../renderers/runtime/chunks';
import { notify } from '../api/notifier';

/**
 * A part of the frame loaded when first wanted (a click): `want()` resolves true once it can be
 * drawn; a chunk that fails to load says 页面资源加载失败，请重试 and resolves false, and the next
 * click tries again.
 */
export function useLazyPart<P>(load: () => Promise<{ default: ComponentType<P> }>): [ComponentType<P> | null, () => Promise<boolean>] {
  const [Part, setPart] = useState<ComponentType<P> | null>(null);
  const want = useCallback(async () => {
    if (Part) return true;
    try {
      const module = await loadChunk(load);
      setPart(() => module.default);
      return true;
    } catch (error) {
      notify.error(`${(error as Error).message}，请重试`);
      return false;
    }
  }, [Part, load]);
  return [Part, want];
}
