import type { ReactNode } from 'react';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { Toasts } from '@/components/ui/toasts';
import { offlineCacheOptions } from '@/lib/offline-cache';
import { queryClient } from '@/lib/query-client';

export function Providers({ children }: { children: ReactNode }) {
  return (
    // The dashboard's last answers are saved and restored, for the installed app offline (lib/offline-cache.ts).
    <PersistQueryClientProvider client={queryClient} persistOptions={offlineCacheOptions}>
      {children}
      <Toasts />
    </PersistQueryClientProvider>
  );
}
