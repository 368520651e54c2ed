import { useEffect } from 'react';

/**
 * Every page's title in the browser's tab, history and a screen reader's first words (WCAG 2.4.2):
 * the page, then the area it belongs to, then the portal ('Grupper – Admin – Säljportalen').
 */
export const documentTitle = (...parts: string[]): string => [...parts, 'Säljportalen'].join(' – ');

/** What a route carries in its `handle` to name its page (app/router.tsx, the admin area's table). */
export interface TitledRoute {
  title: string;
}

export const hasTitle = (handle: unknown): handle is TitledRoute =>
  typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'string';

/** Sets the document's title while the calling route is shown. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title !== undefined) document.title = title;
  }, [title]);
}
