import { useMatches } from 'react-router';
import { documentTitle, hasTitle, useDocumentTitle } from '@/lib/document-title';

/**
 * The title of the deepest route that names one (its `handle.title`). The admin area names its
 * pages itself, from its own route table (features/admin/admin-routes.tsx): its route here has none.
 */
export function RouteTitle() {
  const titled = useMatches().findLast((match) => hasTitle(match.handle));
  useDocumentTitle(titled && hasTitle(titled.handle) ? documentTitle(titled.handle.title) : undefined);
  return null;
}
