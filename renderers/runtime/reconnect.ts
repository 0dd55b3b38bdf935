import { useEffect, useRef } from 'react';
import { useRenderer } from '../services';

/** While `failed`, loads again (`retry`) as soon as the console reports the platform is back. */
export function useRetryOnReconnect(failed: boolean, retry: () => void): void {
  const { reconnected } = useRenderer();
  const latest = useRef(retry);
  useEffect(() => {
    latest.current = retry;
  });
  useEffect(() => {
    if (!failed || !reconnected) return;
    return reconnected(() => latest.current());
  }, [failed, reconnected]);
}
