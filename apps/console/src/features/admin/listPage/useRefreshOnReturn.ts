import { useEffect } from 'react';

/**
 * Calls `refresh` when the admin comes back to the page (its tab shown again, or its window
 * focused again), for what changes without them: a member signing in for the first time.
 * Coming back fires both events, so a refresh under way is not started twice.
 */
export function useRefreshOnReturn(refresh: () => Promise<void>) {
  useEffect(() => {
    let running = false;
    const onReturn = () => {
      if (running || document.visibilityState !== 'visible') return;
      running = true;
      void refresh().finally(() => {
        running = false;
      });
    };
    window.addEventListener('focus', onReturn);
    document.addEventListener('visibilitychange', onReturn);
    return () => {
      window.removeEventListener('focus', onReturn);
      document.removeEventListener('visibilitychange', onReturn);
    };
  }, [refresh]);
}
