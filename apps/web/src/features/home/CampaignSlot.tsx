import { Suspense } from 'react';
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
  if (!CampaignForm) return null;
  return (
    <section className="home-campaign" aria-labelledby="home-campaign-title">
      <h2 id="home-campaign-title">{t('home.campaignTitle')}</h2>
      <Suspense fallback={<Loading />}>
        <CampaignForm />
      </Suspense>
    </section>
  );
}
