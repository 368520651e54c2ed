import { PageContainer } from '@/components/layout/app-layout';

// The seller dashboard of issue 3 replaces this page.
export function DashboardPage() {
  return (
    <PageContainer>
      <h1 className="text-2xl font-bold">Översikt</h1>
    </PageContainer>
  );
}
