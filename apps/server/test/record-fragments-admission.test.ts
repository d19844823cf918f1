import { describe, expect, it } from 'vitest';
import { RecordFragments } from '../src/modules/records/fragments';

/**
 * Once the kept records fill their bound, a record read is kept only when it was read before lately: the hits of
 * searches nobody repeats, or a crawler's walk through a deep list, push out none of the records readers keep asking for.
 */
describe('kept records: the admission rule', () => {
  const fragment = (i: number) => RecordFragments.make(JSON.stringify({ _id: `test-${i}`, title: 'Invented record (test data)', pad: 'x'.repeat(1000) }), 'victims', true);

  it('keeps every record while there is room, then only a record read again', () => {
    // Each fragment counts about 2 KB (its bytes and a kilobyte more): room for four.
    const kept = new RecordFragments(8_500);
    const generation = kept.currentGeneration();
    for (let i = 0; i < 4; i++) kept.set(`k${i}`, fragment(i), generation);
    expect(kept.size).toBe(4);
    // Full: records read once are sent and forgotten; the kept ones stay.
    for (let i = 0; i < 50; i++) kept.set(`once${i}`, fragment(i), generation);
    expect(kept.size).toBe(4);
    expect(kept.get('once3')).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(kept.get(`k${i}`)).toBeDefined();
    // Read a second time, a record is kept (pushing out the least recently used).
    kept.set('once3', fragment(3), generation);
    expect(kept.get('once3')).toBeDefined();
    expect(kept.size).toBe(4);
  });

  it('keeps a record read again through readOnce, as the reads do', async () => {
    const kept = new RecordFragments(8_500);
    const generation = kept.currentGeneration();
    for (let i = 0; i < 4; i++) await kept.readOnce(`k${i}`, async () => fragment(i), generation);
    expect(kept.size).toBe(4);
    await kept.readOnce('new', async () => fragment(9), generation);
    expect(kept.get('new')).toBeUndefined();
    await kept.readOnce('new', async () => fragment(9), generation);
    // readOnce keeps what it read once the read has settled.
    await Promise.resolve();
    expect(kept.get('new')).toBeDefined();
  });

  it('forgets what was read after two generations of 4,096 records', () => {
    const kept = new RecordFragments(8_500);
    const generation = kept.currentGeneration();
    for (let i = 0; i < 4; i++) kept.set(`k${i}`, fragment(i), generation);
    kept.set('early', fragment(1), generation);
    const other = fragment(2);
    for (let i = 0; i < 8_192; i++) kept.set(`other${i}`, other, generation);
    kept.set('early', fragment(1), generation);
    expect(kept.get('early')).toBeUndefined();
    kept.set('early', fragment(1), generation);
    expect(kept.get('early')).toBeDefined();
  });
});
