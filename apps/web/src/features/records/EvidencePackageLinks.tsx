import { useState } from 'react';
import { can, type RecordDto } from '@app/shared';
import { request, requestBlob } from '../../lib/api';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { ActionFeedback, useFailureText, type Feedback } from './ActionFeedback';
import './editor.css';

/** Opens `url` as a download named `name` through a temporary link. */
function saveFrom(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Staff's download of a record's evidence package (docs/evidence-packages.md). The package with withheld testimony is
 * asked for again before it is fetched; the server refuses it without the confirmation and records the choice.
 */
export function EvidencePackageLinks({ record }: { record: RecordDto }) {
  const { t } = useTranslation();
  const user = useSession();
  const failure = useFailureText();
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  if (!user || !can.approve(user)) return null;
  const download = async (withheld: boolean) => {
    if (withheld && !window.confirm(t('editor.confirmEvidenceWithheld'))) return;
    setBusy(true);
    setFeedback(null);
    try {
      const path = `/${record.category}/${record._id}/evidence-package`;
      const name = `evidence-${record.category}-${record._id}${withheld ? '-with-withheld' : ''}.zip`;
      if (withheld) {
        // Never by a link (links end up in histories and logs): fetched with the token, held until saved.
        const url = URL.createObjectURL(await requestBlob(path, { query: { withheld: 'include', confirm: 'yes' } }));
        saveFrom(url, name);
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } else {
        // A link signed for this account for minutes: the browser streams the package to disk, however large.
        saveFrom((await request<{ url: string }>(`${path}/link`, { method: 'POST' })).url, name);
      }
    } catch (err) {
      setFeedback({ kind: 'error', text: failure(t('editor.evidencePackage'), err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="evidence-package-links" aria-busy={busy}>
      <div className="record-actions-row">
        <button type="button" className="btn" onClick={() => void download(false)} disabled={busy}>
          {t('editor.evidencePackage')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => void download(true)} disabled={busy}>
          {t('editor.evidencePackageWithheld')}
        </button>
      </div>
      <ActionFeedback feedback={feedback} />
    </div>
  );
}
