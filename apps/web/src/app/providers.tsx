import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { queryClient } from '@/lib/query-client';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {/* spec §9: one toast at a time. */}
      <Toaster visibleToasts={1} position="top-center" richColors closeButton toastOptions={{ duration: 5000 }} containerAriaLabel="Meddelanden" />
    </QueryClientProvider>
  );
}
