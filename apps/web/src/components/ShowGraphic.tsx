import type { MouseEvent } from 'react';
import { useTranslation } from '../lib/translate';

/**
 * The "Show" button of a graphic image or video (ResponsiveImage's GraphicGuard): unblurs the media and hands it to
 * assistive technology and the keyboard. An island, so it works on a reading page without the app; the guard's markup
 * is the server's, so the button changes it in place.
 */
export function ShowGraphic() {
  const { t } = useTranslation();
  const show = (event: MouseEvent<HTMLButtonElement>) => {
    const guard = event.currentTarget.closest('.graphic-guard');
    const media = guard?.querySelector('.graphic-guard-media');
    media?.removeAttribute('inert');
    media?.removeAttribute('aria-hidden');
    guard?.classList.add('is-shown');
    // The warning goes with its button (a reader of the page no longer meets it).
    guard?.querySelector('.graphic-guard-notice')?.remove();
  };
  return (
    <button type="button" onClick={show}>
      {t('record.show')}
    </button>
  );
}
