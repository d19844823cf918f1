import { Suspense, useRef } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useWhenNear } from '../../lib/useWhenNear';
import { useSlot } from '../../components/Slots';
import { Loading } from '../../components/Status';

/**
 * CAMPAIGN FORM SLOT. The campaign form (features/campaign) is registered as `campaignForm` in app/slots.tsx; until it
 * is, nothing shows here.
 */
export function CampaignSlot() {
  const { t } = useTranslation();
  const CampaignForm = useSlot('campaignForm');
  // The form's code is fetched and run when the visitor comes near it (or focuses it), not while the app starts: a
  // reader who never scrolls down does not pay for it, and taking over the server-rendered page (which shows
  // "Loading..." here, as the app's first render must too) stays short.
  const sectionRef = useRef<HTMLElement>(null);
  const [near, nearNow] = useWhenNear(sectionRef);
  if (!CampaignForm) return null;
  return (
    <section ref={sectionRef} className="home-campaign" aria-labelledby="home-campaign-title" onFocus={nearNow} onPointerEnter={nearNow}>
      <h2 id="home-campaign-title">{t('home.campaignTitle')}</h2>
      {near ? (
        <Suspense fallback={<Loading />}>
          <CampaignForm />
        </Suspense>
      ) : (
        <Loading />
      )}
    </section>
  );
}
