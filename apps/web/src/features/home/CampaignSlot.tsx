import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/translate';
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
  // The form's code, and then the representatives' directory, are fetched and run once the section is on screen
  // (or focused, under the pointer, or a Tab is pressed), not while the app starts: a reader who never scrolls down
  // to it does not pay for them. Starting early (a margin) put them on every phone visit's bill, as the section
  // starts just below a phone's first screen (docs/performance.md, web app). Taking over the server-rendered page (which shows "Loading..." here, as the app's first
  // render must too) stays short either way.
  const sectionRef = useRef<HTMLElement>(null);
  const [near, nearNow] = useWhenNear(sectionRef, '0px');
  // A keyboard visitor's Tab may pass the section before it has been on screen, and until the form arrives it holds
  // nothing to focus, so the form was skipped: the first Tab pressed on the page loads it.
  useEffect(() => {
    if (near) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Tab') nearNow();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [near, nearNow]);
  if (!CampaignForm) return null;
  return (
    <section ref={sectionRef} className="home-campaign" aria-labelledby="home-campaign-title" onFocus={nearNow} onPointerEnter={nearNow}>
      <h2 id="home-campaign-title">{t('home.campaignTitle')}</h2>
      {near ? (
        <Suspense fallback={<CampaignPending />}>
          <CampaignForm />
        </Suspense>
      ) : (
        <CampaignPending />
      )}
    </section>
  );
}

/**
 * Until the form comes, its place: nearly the form's height (home.css), so its arrival, once the section is reached,
 * moves nothing on screen (the footer under "Loading..." jumped by the form's height on a phone).
 */
function CampaignPending() {
  return (
    <div className="home-campaign-pending">
      <Loading />
    </div>
  );
}
