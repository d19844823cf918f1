import { useState } from 'react';
import { useNavigate } from 'react-router';
import { takeDraft } from '../features/testimony/draft';
import { setStatus } from '../features/testimony/api';
import { paths, type CategorySlug, type RecordDto } from '@app/shared';
import DashboardPage from '../features/dashboard/DashboardPage';
import { AddRecordForm } from '../features/records/AddRecordForm';

/** /dashboard: the dashboard's picker with the records feature's add form; a created record shows in its list. */
export default function DashboardRoute() {
  const navigate = useNavigate();
  // A reviewer's "Create a record from this" (features/testimony) leaves the form's starting values for one add form.
  const [fromTestimony] = useState(() => (new URLSearchParams(window.location.search).has('fromTestimony') ? takeDraft() : null));
  const created = async (slug: CategorySlug, record: RecordDto) => {
    // The testimony is marked used with the record made from it; a refusal (the key locked meanwhile) leaves it in the
    // queue as it was, where the reviewer sees it.
    if (fromTestimony) await setStatus({ id: fromTestimony.testimonyId, status: 'used', recordId: record._id }).catch(() => undefined);
    void navigate(paths.list(slug));
  };
  return (
    <DashboardPage
      renderAddForm={(category) => <AddRecordForm category={category} draft={fromTestimony?.draft} onCreated={(record) => void created(category.slug, record)} />}
    />
  );
}
