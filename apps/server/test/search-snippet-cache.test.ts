import { describe, expect, it } from 'vitest';
import { SnippetCache } from '../src/modules/search/snippet-cache';
import { highlightTerms, snippetOf } from '../src/modules/search/snippet';

/** The snippet cache of the search (snippet-cache.ts). Texts here are invented test data. */
describe('snippet cache', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  const terms = highlightTerms('lantern');

  it('answers as snippetOf, and keeps what it cut for the same record and words', () => {
    const cache = new SnippetCache();
    const [first] = cache.snippetsOf([{ id, text: 'Test data: the blue lantern.' }], terms, cache.current());
    expect(first).toEqual(snippetOf('Test data: the blue lantern.', terms));
    // Kept: the same record and words give the snippet cut before, whatever text is passed.
    expect(cache.snippetsOf([{ id, text: 'Test data: another lantern.' }], terms, cache.current())[0]).toBe(first);
    // Other words are another snippet.
    expect(cache.snippetsOf([{ id, text: 'Test data: the blue lantern.' }], highlightTerms('blue'), cache.current())[0]).not.toEqual(first);
  });

  it('forgets on a change of records, and keeps nothing cut from text read before the change', () => {
    const cache = new SnippetCache();
    const before = cache.current();
    cache.snippetsOf([{ id, text: 'Test data: old lantern.' }], terms, before);
    cache.forget();
    // A search that read its text before the change: answered, not kept.
    const stale = cache.snippetsOf([{ id, text: 'Test data: old lantern.' }], terms, before)[0];
    expect(stale).toEqual(snippetOf('Test data: old lantern.', terms));
    const fresh = cache.snippetsOf([{ id, text: 'Test data: new lantern.' }], terms, cache.current())[0];
    expect(fresh).toEqual(snippetOf('Test data: new lantern.', terms));
  });
});
