import { useEffect, useState } from 'react';
import { onToasterNeeded, prepareToasts } from '@/lib/toast';

type Sonner = typeof import('sonner');

/** sonner's toaster, on the page from the first tap, key press or toast on (see lib/toast.ts). */
export function Toasts() {
  const [sonner, setSonner] = useState<Sonner>();
  useEffect(() => onToasterNeeded((loaded) => setSonner(() => loaded)), []);
  // The first tap or key press loads it, well before a form's answer can need it.
  useEffect(() => {
    const prepare = () => void prepareToasts();
    const options = { once: true, capture: true, passive: true } as const;
    window.addEventListener('pointerdown', prepare, options);
    window.addEventListener('keydown', prepare, options);
    return () => {
      window.removeEventListener('pointerdown', prepare, options);
      window.removeEventListener('keydown', prepare, options);
    };
  }, []);
  if (!sonner) return null;
  return (
    <sonner.Toaster
      // spec §9: one toast at a time.
      visibleToasts={1}
      position="top-center"
      closeButton
      containerAriaLabel="Meddelanden"
      toastOptions={{
        duration: 5000,
        // Our own colours: sonner's rich colours fall below WCAG AA contrast.
        classNames: {
          toast: '!border-line !bg-white !text-ink',
          error: '!border-red-300 !bg-red-50 !text-red-950',
          success: '!border-green-300 !bg-green-50 !text-green-950',
          description: '!text-current',
          closeButton: '!border-line !bg-white !text-ink',
        },
      }}
    />
  );
}
