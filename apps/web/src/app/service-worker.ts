import type { DataRouter } from 'react-router';

/**
 * The service worker (vite-plugin-pwa's /sw.js, see vite.config.ts) precaches the whole app, some
 * thirty files, as it installs. It registers once the first page has its code and data and the
 * browser is idle, so that on a slow phone the install competes neither with the page's own
 * requests nor with its main thread.
 */
export function registerServiceWorkerWhenIdle(router: DataRouter): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const whenIdle = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(register, { timeout: 3000 }) : setTimeout(register, 1000);
  if (router.state.initialized) {
    whenIdle();
    return;
  }
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    whenIdle();
  });
}
