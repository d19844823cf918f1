import { CATEGORIES } from '@app/shared';
import { SearchView } from '../features/search/SearchView';
import { RecordCard } from '../features/records/RecordCard';

/** /search: the search feature's page, each hit drawn as the records feature's card, as in the lists. */
export default function SearchRoute() {
  return <SearchView renderRecord={(record, index) => <RecordCard category={CATEGORIES[record.category]} record={record} priority={index === 0} />} />;
}
