import { describe, expect, it } from 'vitest';
import { surelyRare } from '../src/modules/search/query';

/**
 * Which searches run their exact statement with the one plan made for every word (preparedSqlRows' 'generic'): only
 * those whose words' statistics say they match at most a hundredth of the records, where the index's way is the plan
 * whatever the words. Unknown or possibly common words keep a plan chosen for their values (a common word is read
 * sooner in the table's order up to the limit).
 */
describe('the plan of a search for words', () => {
  const records = 1_000_000;

  it('is made once for words surely in at most a hundredth of the records', () => {
    expect(surelyRare({ low: 0, high: 3_800, filtered: records, records })).toBe(true);
    expect(surelyRare({ low: 100, high: 10_000, filtered: records, records })).toBe(true);
  });

  it('is chosen per search for words that may be commoner, or whose share is not known', () => {
    expect(surelyRare({ low: 0, high: 10_001, filtered: records, records })).toBe(false);
    expect(surelyRare({ low: 500_000, high: 990_000, filtered: records, records })).toBe(false);
    expect(surelyRare(null)).toBe(false);
    expect(surelyRare({ low: 0, high: 0, filtered: 0, records: 0 })).toBe(false);
  });
});
