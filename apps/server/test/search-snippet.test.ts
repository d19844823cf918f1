import { describe, expect, it } from 'vitest';
import { highlightTerms, snippetOf } from '../src/modules/search/snippet';

const marked = (parts: { text: string; match: boolean }[]) => parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('search snippets', () => {
  it('marks the words searched for, in any case, and not the words left out', () => {
    const terms = highlightTerms('Lantern -blue "crossing dawn" or river');
    expect([...terms].sort()).toEqual(['crossing', 'dawn', 'lantern', 'river']);
    expect(marked(snippetOf('The blue LANTERN was crossing at dawn.', terms))).toBe('The blue [LANTERN] was [crossing] at [dawn]');
  });

  it('marks Amharic words in their inflected forms, and keeps Ge\'ez punctuation in the text', () => {
    const parts = snippetOf('ጽሑፍ። የሙከራ መዝገቦች፣ ቤተሰብ', highlightTerms('ሙከራ መዝገብ'));
    expect(marked(parts)).toBe('ጽሑፍ። [የሙከራ] [መዝገቦች]፣ ቤተሰብ');
  });

  it("reads a description's markdown as plain text: no emphasis marks or link addresses between the words", () => {
    const parts = snippetOf('Town (fictional) **Sample record - not real data.** See [the report](https://example.org/r) *here*.', highlightTerms('sample'));
    expect(marked(parts)).toBe('Town (fictional) [Sample] record - not real data. See the report here');
  });

  it('shows every run of spaces, tabs and line breaks between the words as one space, as in the plain text', () => {
    const terms = highlightTerms('lantern');
    const spaced = 'Test data  (not real):\n\nthe   lantern\twas lit.\r\n  A second line';
    expect(marked(snippetOf(spaced, terms))).toBe('Test data (not real): the [lantern] was lit. A second line');
    // The same as the text with its spacing evened out first, for the opening words too.
    const evened = spaced.replace(/\s+/g, ' ');
    expect(snippetOf(spaced, terms)).toEqual(snippetOf(evened, terms));
    expect(snippetOf(spaced, highlightTerms('title'))).toEqual(snippetOf(evened, highlightTerms('title')));
  });

  it('cuts up to two pieces around the words found, joined by an ellipsis', () => {
    const filler = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
    const text = `${filler(40, 'a')} needle ${filler(60, 'b')} needle ${filler(40, 'c')}`;
    const parts = snippetOf(text, highlightTerms('needle'));
    const shown = marked(parts);
    expect(shown.split(' … ')).toHaveLength(2);
    expect(shown.match(/\[needle\]/g)).toHaveLength(2);
    expect(shown.split(/\s+/).length).toBeLessThanOrEqual(2 * 28 + 1);
    expect(shown.startsWith('a34 ')).toBe(true);
  });

  it('shows the opening words when the words were found elsewhere (a title), and nothing without words', () => {
    const text = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ');
    expect(marked(snippetOf(text, highlightTerms('title')))).toBe(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '));
    expect(snippetOf(text, highlightTerms(''))).toEqual([]);
    expect(snippetOf(null, highlightTerms('x'))).toEqual([]);
  });

  it('splits words as the index does: letters with their combining marks, digits of any script, letters past the 16-bit range', () => {
    // An accent written as a combining mark, Arabic-Indic digits, mathematical bold letters (two UTF-16 units each), an
    // emoji (no letter) between two words, Ge'ez punctuation, and an underscore (no letter either).
    const text = 'cafe\u0301 ٣٤ 𝐀𝐁 ab😀cd ቤቱ።ቤት x_y café';
    const shown = (q: string) => marked(snippetOf(text, highlightTerms(q)));
    expect(shown('cafe\u0301')).toBe('[cafe\u0301] ٣٤ 𝐀𝐁 ab😀cd ቤቱ።ቤት x_y café');
    expect(shown('٣٤')).toBe('cafe\u0301 [٣٤] 𝐀𝐁 ab😀cd ቤቱ።ቤት x_y café');
    expect(shown('𝐀𝐁')).toBe('cafe\u0301 ٣٤ [𝐀𝐁] ab😀cd ቤቱ።ቤት x_y café');
    expect(shown('cd y')).toBe('cafe\u0301 ٣٤ 𝐀𝐁 ab😀[cd] ቤቱ።ቤት x_[y] café');
    // ቤቱ (the house) and ቤት (house) share a stem; both sides of the Ge'ez full stop are words.
    expect(shown('ቤት')).toBe('cafe\u0301 ٣٤ 𝐀𝐁 ab😀cd [ቤቱ]።[ቤት] x_y café');
  });
});
