import { useNavigate } from 'react-router';
import { paths } from '@app/shared';
import DashboardPage from '../features/dashboard/DashboardPage';
import { AddRecordForm } from '../features/records/AddRecordForm';

/** /dashboard: the dashboard's picker with the records feature's add form; a created record shows in its list. */
export default function DashboardRoute() {
  const navigate = useNavigate();
  return <DashboardPage renderAddForm={(category) => <AddRecordForm category={category} onCreated={() => navigate(paths.list(category.slug))} />} />;
}
