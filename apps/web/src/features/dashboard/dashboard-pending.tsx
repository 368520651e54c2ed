import { PageContainer } from '@/components/layout/app-layout';

/**
 * The dashboard route while its code and figures load (up to a second, see the router): nothing
 * to see, so the page then draws once with its figures, but the page's name and state for screen
 * readers. The header and the rest of the frame are drawn meanwhile, off the page's critical path.
 * It fills the screen, so the footer waits below it instead of showing at the screen's foot and
 * then jumping away when the page draws (a layout shift, decision 045).
 */
export function DashboardPending() {
  return (
    <PageContainer className="min-h-dvh">
      <h1 className="sr-only">Översikt</h1>
      <p role="status" className="sr-only">
        Laddar översikten...
      </p>
    </PageContainer>
  );
}
