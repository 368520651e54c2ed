import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { queryClient } from '@/lib/query-client';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {/* spec §9: one toast at a time. */}
      <Toaster
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
    </QueryClientProvider>
  );
}
