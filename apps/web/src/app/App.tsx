import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { SlotsProvider } from '../components/Slots';
import { createRouter } from './router';
import { slots } from './slots';

export function App() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  const [router] = useState(createRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <SlotsProvider value={slots}>
        <RouterProvider router={router} />
      </SlotsProvider>
    </QueryClientProvider>
  );
}
