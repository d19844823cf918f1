import { useTranslation } from 'react-i18next';
import { Placeholder } from '../../components/Placeholder';
import { useCategoryFromPath } from './useCategoryFromPath';

export default function EditPage() {
  const { t } = useTranslation();
  const category = useCategoryFromPath();
  return <Placeholder title={t(category.listTitle, { count: 0 })} />;
}
