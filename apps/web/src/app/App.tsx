import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import { SlotsProvider } from '../components/Slots';
import { setNavigator } from '../lib/navigate';
import { createRouter } from './router';
import { slots } from './slots';

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
  });

/** What every screen needs around it, in the browser and when the server renders a page. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SlotsProvider value={slots}>{children}</SlotsProvider>
    </QueryClientProvider>
  );
}

/** The app in the browser; `queryClient` arrives filled with the data the server rendered the page from. */
export function App({ queryClient, router: givenRouter }: { queryClient?: QueryClient; router?: ReturnType<typeof createRouter> }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [router] = useState(() => {
    const made = givenRouter ?? createRouter();
    // The islands' navigation (a filter form, the viewer's keys) goes through the router while the app runs: set
    // before any render, as the islands ask in their first effects whether the app runs.
    setNavigator((to) => void made.navigate(to));
    return made;
  });
  return (
    <AppProviders queryClient={client}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
