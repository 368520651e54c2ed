import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { prepareClassMerge } from '@/lib/cn';
import { paths } from '@/lib/paths';
import { Providers } from './providers';
import { createAppRouter, preloadDashboard } from './router';
import { registerServiceWorkerWhenIdle } from './service-worker';

/**
 * A slow phone's main thread is never held for long at the start: evaluating the code (which on
 * the dashboard also sends for its code and figures), building the router, preparing
 * tailwind-merge and rendering each run in tasks of their own; index.html's frame shows meanwhile.
 */
function start() {
  const router = createAppRouter();
  const root = createRoot(document.getElementById('root')!);
  const app = (
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>
  );
  if (router.state.initialized) {
    // As a transition, a page's first render yields to the browser every few milliseconds.
    startTransition(() => root.render(app));
  } else {
    // The page still waits for its code or data, so the first render is only the frame with the
    // page's placeholder, and commits in one go: RouterProvider reads the router's state as it
    // renders but subscribes to it only in a layout effect, and a render spread over several
    // tasks could miss preloaded data arriving in between. The page then renders as a transition,
    // as every router update does.
    root.render(app);
  }
  setTimeout(prepareClassMerge);
  registerServiceWorkerWhenIdle(router);
}

if (window.location.pathname === paths.dashboard) preloadDashboard();
setTimeout(start);
