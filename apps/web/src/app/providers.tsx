import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toasts } from '@/components/ui/toasts';
import { queryClient } from '@/lib/query-client';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toasts />
    </QueryClientProvider>
  );
}
