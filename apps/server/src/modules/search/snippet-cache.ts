import { LRUCache } from 'lru-cache';
import type { SnippetPart } from '@app/shared';
import { GuardedReads } from '../cache/guarded-reads';
import { highlightTerms, snippetOf } from './snippet';

/** Snippets kept: a record's snippet for one set of words is a few hundred bytes. */
const SNIPPETS_KEPT = 10_000;

/**
 * Snippets cut lately, by record and words searched for. Cutting a hit's snippet (its text read as plain text, split
 * into words, the best pieces chosen) was a tenth of a unique search's CPU in the server, and searches for the same
 * words with other filters or dates find many of the same records (the newest of a common word above all). A
 * snippet depends only on the record's text and the words, so it is kept until records change (the search plugin
 * calls `forget` as the response cache is cleared), and one cut from text read before a change is not kept.
 */
export class SnippetCache {
  private readonly cut = new LRUCache<string, SnippetPart[]>({ max: SNIPPETS_KEPT });
  /** The generation guard every cache of reads uses (cache/guarded-reads.ts); its merging of reads is not needed here. */
  private readonly guard = new GuardedReads();

  /** The generation to pass to `snippetsOf`: taken before the hits' text is read. */
  current(): number {
    return this.guard.current();
  }

  forget(): void {
    this.guard.advance();
    this.cut.clear();
  }

  /** The snippet of each hit (snippetOf), kept or cut and kept unless records changed since `generation`. */
  snippetsOf(hits: readonly { id: string; text: string | null }[], terms: ReadonlySet<string>, generation: number): SnippetPart[][] {
    if (!terms.size) return hits.map(() => []);
    const words = [...terms].join(' ');
    return hits.map(({ id, text }) => {
      const key = `${id} ${words}`;
      let snippet = this.cut.get(key);
      if (!snippet) {
        snippet = snippetOf(text, terms);
        if (this.guard.isCurrent(generation)) this.cut.set(key, snippet);
      }
      return snippet;
    });
  }
}

/** The snippets of hits for the words of `q`: through `cache` when there is one (taken at `generation`), else cut. */
export function snippetsOfHits(hits: readonly { id: string; text: string | null }[], q: string | undefined, cache: SnippetCache | undefined, generation: number): SnippetPart[][] {
  const terms = highlightTerms(q ?? '');
  return cache ? cache.snippetsOf(hits, terms, generation) : hits.map((hit) => snippetOf(hit.text, terms));
}
