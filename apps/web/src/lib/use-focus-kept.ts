import { useEffect, type RefObject } from 'react';

/**
 * Keeps keyboard focus inside `container` when the control that had it is replaced (issue 33
 * point 5): a form that opens in place of its button, a form remounted with what was saved, a
 * card whose form gives way to its result. A focused element that leaves the page takes focus with
 * it to <body>, where a screen reader falls silent and the next Tab starts from the top. Focus goes
 * instead to the first element `target` selects in the container as it now is.
 */
export function useFocusKept(container: RefObject<HTMLElement | null>, target: string): void {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    // What had focus in the container last; forgotten when focus moves on to something else.
    let focused: Element | null = null;
    const onFocusIn = (event: FocusEvent) => (focused = event.target as Element);
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget) focused = root.contains(event.relatedTarget as Node) ? (event.relatedTarget as Element) : null;
    };
    // React removes the old control and inserts its replacement in one commit: by the time the
    // observer hears of it, the replacement is there.
    const observer = new MutationObserver(() => {
      if (!focused || focused.isConnected) return;
      const active = document.activeElement;
      if (active !== null && active !== document.body) return;
      const next = root.querySelector<HTMLElement>(target);
      focused = next;
      next?.focus();
    });
    observer.observe(root, { childList: true, subtree: true });
    root.addEventListener('focusin', onFocusIn);
    root.addEventListener('focusout', onFocusOut);
    return () => {
      observer.disconnect();
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('focusout', onFocusOut);
    };
  }, [container, target]);
}
