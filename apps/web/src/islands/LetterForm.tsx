import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, useState } from 'react';

const CampaignForm = lazy(() => import('../features/campaign/CampaignForm'));

/**
 * The home page's letter form on a reading page without the app: the form with a query client of its own (the
 * representatives' directory, sending). Loaded only once the reader comes near the form (features/home/CampaignSlot).
 */
export default function IslandCampaignForm() {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={client}>
      <CampaignForm />
    </QueryClientProvider>
  );
}
