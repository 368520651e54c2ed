import { Suspense, lazy, useState } from 'react';
import { useLocation } from 'react-router';
import { Smartphone } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useInstallOffer } from '../install-prompt';

// The dialog (and Radix with it) loads only for the iPhone visitor who asks for it.
const IosInstallDialog = lazy(() => import('./ios-install-dialog').then((module) => ({ default: module.IosInstallDialog })));

/**
 * spec §1: an install-to-home-screen banner for visitors who have not installed the app and have
 * not dismissed it; Chromium's install prompt, or the three iOS Safari steps in a dialog.
 */
export function InstallBanner() {
  const { kind, dismiss, promptInstall } = useInstallOffer();
  const [stepsOpen, setStepsOpen] = useState(false);
  const { pathname } = useLocation();

  // The admin area is a desk tool with its own frame.
  if (!kind || pathname.startsWith('/admin')) return null;

  return (
    // At the foot of the screen: Chromium's install event comes after the page is drawn, and a
    // banner pushed in above it would shift everything down (CLS, issue 7). Sticky after the page
    // rather than fixed over it: it has a place of its own below the page's end, so scrolled to
    // the bottom nothing is under it, as the teacher's own row in the leaderboard was (issue 19).
    <section
      aria-labelledby="install-banner-title"
      className="sticky bottom-0 z-40 border-t border-emerald-200 bg-brand-soft pb-[env(safe-area-inset-bottom)] shadow-lg"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Smartphone className="hidden size-6 shrink-0 text-brand sm:block" aria-hidden="true" />
        <div className="min-w-0 flex-1 basis-56">
          {/* Not a heading: an aside to every page, not a part of its outline. */}
          <p id="install-banner-title" className="font-semibold text-ink">
            Installera Säljportalen
          </p>
          <p className="text-sm text-ink">Lägg appen på hemskärmen, så har du din försäljning och din länk nära till hands.</p>
        </div>
        <div className="flex gap-2">
          <Button variant="brand" size="sm" onClick={() => (kind === 'ios' ? setStepsOpen(true) : void promptInstall())}>
            Installera
          </Button>
          <Button variant="ghost" size="sm" onClick={dismiss}>
            Inte nu
          </Button>
        </div>
      </div>
      {stepsOpen && (
        <Suspense fallback={null}>
          <IosInstallDialog
            open={stepsOpen}
            onOpenChange={setStepsOpen}
            onDone={() => {
              setStepsOpen(false);
              dismiss();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
