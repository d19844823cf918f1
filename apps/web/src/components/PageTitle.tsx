import { useEffect } from 'react';
import { showsTitleHeading } from '@app/shared';
import { brand } from '../lib/brand';
import { reportTitle } from '../lib/pageStatus';

/**
 * Sets the document title and shows the title as a heading only when it has fewer than 5 words.
 * A longer title still gets a heading for screen readers, hidden from view. `alwaysShown`: the heading is the name of
 * what the page shows (a record's title block), which the rule about short page titles does not hide.
 */
export function PageTitle({ title, className, alwaysShown = false }: { title: string; className?: string; alwaysShown?: boolean }) {
  reportTitle(title);
  useEffect(() => {
    document.title = title ? `${title} | ${brand.siteName}` : brand.siteName;
  }, [title]);
  const visible = alwaysShown || showsTitleHeading(title);
  return (
    <h1 className={visible ? (className ?? 'page-title') : 'visually-hidden'} data-testid="page-title">
      {title}
    </h1>
  );
}
