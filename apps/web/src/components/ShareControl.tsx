import { useTranslation } from '../lib/translate';
import { SHARE_TEXT } from '@app/shared';
import { hashtag } from '../lib/brand';
import { Island } from '../islands/Island';
import { CopyButton } from './CopyButton';
import './media.css';

/** The four networks of the spec, each given the page URL and the share text with the hashtag. */
export function shareLinks(url: string): { network: 'facebook' | 'x' | 'telegram' | 'whatsapp'; href: string }[] {
  const tag = hashtag();
  const text = `${SHARE_TEXT} ${tag}`;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return [
    { network: 'facebook', href: `https://www.facebook.com/sharer/sharer.php?${q({ u: url, quote: text, hashtag: tag })}` },
    { network: 'x', href: `https://x.com/intent/tweet?${q({ url, text: SHARE_TEXT, hashtags: tag.slice(1) })}` },
    { network: 'telegram', href: `https://t.me/share/url?${q({ url, text })}` },
    { network: 'whatsapp', href: `https://wa.me/?${q({ text: `${text} ${url}` })}` },
  ];
}

const ICONS: Record<string, string> = { facebook: 'f', x: '𝕏', telegram: '✈', whatsapp: '✆' };

/** Share block of detail pages and the image viewer: four networks plus a copy-link button. */
export function ShareControl({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <section className="share-control" aria-label={t('share.label')}>
      <ul>
        {shareLinks(url).map(({ network, href }) => (
          <li key={network}>
            <a className={`share-${network}`} href={href} target="_blank" rel="noopener noreferrer" aria-label={t(`share.${network}`)} title={t(`share.${network}`)}>
              <span aria-hidden="true">{ICONS[network]}</span>
            </a>
          </li>
        ))}
        <li>
          <Island name="copy" component={CopyButton} props={{ text: url }} />
        </li>
      </ul>
    </section>
  );
}
