import { CATEGORIES } from '@app/shared';
import { SearchView } from '../features/search/SearchView';
import { RecordHit } from '../features/records/RecordHit';

/** /search: the search feature's page, each hit drawn as the records feature's compact hit, with its snippet. */
export default function SearchRoute() {
  return (
    <SearchView
      renderRecord={(record, index, snippet) => <RecordHit category={CATEGORIES[record.category]} record={record} snippet={snippet} priority={index === 0} />}
    />
  );
}
