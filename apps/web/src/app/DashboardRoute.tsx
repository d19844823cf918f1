import { useState } from 'react';
import { useNavigate } from 'react-router';
import { takeDraft } from '../features/testimony/draft';
import { paths } from '@app/shared';
import DashboardPage from '../features/dashboard/DashboardPage';
import { AddRecordForm } from '../features/records/AddRecordForm';

/** /dashboard: the dashboard's picker with the records feature's add form; a created record shows in its list. */
export default function DashboardRoute() {
  const navigate = useNavigate();
  // A reviewer's "Create a record from this" (features/testimony) leaves the form's starting values for one add form.
  const [draft] = useState(() => (new URLSearchParams(window.location.search).has('fromTestimony') ? takeDraft() : null));
  return <DashboardPage renderAddForm={(category) => <AddRecordForm category={category} draft={draft ?? undefined} onCreated={() => navigate(paths.list(category.slug))} />} />;
}
