import { useEffect, useRef, useState } from 'react';
import { onToasterNeeded, prepareToasts } from '@/lib/toast';

type Sonner = typeof import('sonner');

/**
 * sonner sends focus back to where it came from whenever focus leaves its toasts (made for its
 * Alt+T hotkey). For someone who Tabs through the page that is a trap: the page's last control,
 * the toast, 'Stäng', and back to that control, never the header (issue 19). Focus events from
 * inside the toasts stop at their wrapper, so sonner never sees them and Tab moves on as it does
 * everywhere else; only when the focused toast itself goes away (its time is up, or 'Stäng')
 * does focus go back to where it was before, instead of being lost.
 */
function letFocusMoveOn(wrapper: HTMLElement): () => void {
  let cameFrom: HTMLElement | null = null;
  const onFocusIn = (event: FocusEvent) => {
    event.stopPropagation();
    const from = event.relatedTarget;
    if (from instanceof HTMLElement && !wrapper.contains(from)) cameFrom = from;
  };
  const onFocusOut = (event: FocusEvent) => event.stopPropagation();
  const onRemoved = () => {
    const focused = document.activeElement;
    if (focused && wrapper.contains(focused)) return;
    if (cameFrom?.isConnected && (focused === null || focused === document.body)) cameFrom.focus({ preventScroll: true });
    cameFrom = null;
  };
  const observer = new MutationObserver(onRemoved);
  observer.observe(wrapper, { childList: true, subtree: true });
  wrapper.addEventListener('focusin', onFocusIn);
  wrapper.addEventListener('focusout', onFocusOut);
  return () => {
    observer.disconnect();
    wrapper.removeEventListener('focusin', onFocusIn);
    wrapper.removeEventListener('focusout', onFocusOut);
  };
}

/** sonner's toaster, on the page from the first tap, key press or toast on (see lib/toast.ts). */
export function Toasts() {
  const [sonner, setSonner] = useState<Sonner>();
  const wrapperRef = useRef<HTMLDivElement>(null);
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
  useEffect(() => (sonner && wrapperRef.current ? letFocusMoveOn(wrapperRef.current) : undefined), [sonner]);
  if (!sonner) return null;
  // Below the header (styles.css --toast-top), never over its group switcher, menu or admin tabs.
  const offset = { top: 'var(--toast-top)' };
  return (
    <div ref={wrapperRef}>
      <sonner.Toaster
        // spec §9: one toast at a time.
        visibleToasts={1}
        position="top-center"
        offset={offset}
        mobileOffset={offset}
        closeButton
        containerAriaLabel="Meddelanden"
        toastOptions={{
          duration: 5000,
          closeButtonAriaLabel: 'Stäng',
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
    </div>
  );
}
