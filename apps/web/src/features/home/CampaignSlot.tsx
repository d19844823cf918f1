import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useSlot } from '../../components/Slots';
import { Loading } from '../../components/Status';

/**
 * CAMPAIGN FORM SLOT. The campaign form (features/campaign) is registered as `campaignForm` in app/slots.tsx; until it
 * is, nothing shows here.
 */
export function CampaignSlot() {
  const { t } = useTranslation();
  const CampaignForm = useSlot('campaignForm');
  // The form's code is asked for once the page is up, not while the app takes over a server-rendered page (which
  // shows "Loading..." here, as the app's first render must too): that first render stays one short task.
  const [started, setStarted] = useState(false);
  useEffect(() => setStarted(true), []);
  if (!CampaignForm) return null;
  return (
    <section className="home-campaign" aria-labelledby="home-campaign-title">
      <h2 id="home-campaign-title">{t('home.campaignTitle')}</h2>
      {started ? (
        <Suspense fallback={<Loading />}>
          <CampaignForm />
        </Suspense>
      ) : (
        <Loading />
      )}
    </section>
  );
}
