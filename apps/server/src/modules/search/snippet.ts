import { markdownToPlainText, type SnippetPart } from '@app/shared';
import { stemWord } from '../../db/amharic';
import { normaliseSearchText } from '../collection/filters';

/**
 * The snippet of a hit: a few lines of its text around the words the search found, as plain-text pieces with the
 * found words marked `match` (never HTML). Cut here from the record's text rather than by PostgreSQL's ts_headline,
 * which parsed each hit's whole text again and cost more than finding the hits (docs/performance.md).
 */

/** The longest piece of text around the words found, in words, and how many pieces at most. */
const FRAGMENT_WORDS = 28;
const FRAGMENTS = 2;
/** Words shown before the first word found in a piece. */
const LEAD_WORDS = 6;
/** Words shown when none of the words searched for is in the text (found in a title or a name). */
const OPENING_WORDS = 20;
const DELIMITER = ' … ';

/** Words as the index splits them: runs of letters, marks and digits (Ge'ez punctuation is not a letter). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const GEEZ = /^[\u1200-\u1357]+$/;

/** A word as the index keeps it: lower case; an Amharic word by its stem (db/amharic.ts). */
function keyOf(word: string): string {
  return GEEZ.test(word) ? stemWord(word) : word.toLowerCase();
}

/** Whether `word` is one of `terms`, without lower-casing or stemming the many words whose length rules them out. */
function isTerm(word: string, terms: ReadonlySet<string>, lengths: ReadonlySet<number>): boolean {
  const first = word.charCodeAt(0);
  if (first >= 0x1200 && first <= 0x1357) return GEEZ.test(word) ? terms.has(stemWord(word)) : terms.has(word.toLowerCase());
  return lengths.has(word.length) && terms.has(word.toLowerCase());
}

/** The words of `q` a snippet marks: every word not left out (`-word`, `-"a phrase"`), as the index keeps it. */
export function highlightTerms(q: string): Set<string> {
  const terms = new Set<string>();
  for (const token of normaliseSearchText(q).match(/-?"[^"]*"?|\S+/g) ?? []) {
    if (token.startsWith('-') || token.toLowerCase() === 'or') continue;
    for (const word of token.match(WORD) ?? []) terms.add(keyOf(word));
  }
  return terms;
}

interface Word {
  start: number;
  end: number;
  found: boolean;
}

/** The snippet of `text` for the words `terms` (highlightTerms); a description's markdown is read as plain text. */
export function snippetOf(markdown: string | null, terms: ReadonlySet<string>): SnippetPart[] {
  if (!markdown || !terms.size) return [];
  // Shown as plain text: "**" or a link's address would otherwise show between the words.
  const text = markdownToPlainText(markdown);
  const lengths = new Set([...terms].map((term) => term.length));
  const words: Word[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    words.push({ start: match.index, end: match.index + match[0].length, found: isTerm(match[0], terms, lengths) });
  }
  if (!words.length) return [];
  const found = words.flatMap((word, i) => (word.found ? [i] : []));
  if (!found.length) return piece(text, words, 0, Math.min(words.length, OPENING_WORDS));
  // The pieces holding the most words found, earliest first among equals, that do not overlap.
  const candidates = found.map((i) => {
    const from = Math.max(0, Math.min(i - LEAD_WORDS, words.length - FRAGMENT_WORDS));
    const to = Math.min(words.length, from + FRAGMENT_WORDS);
    return { from, to, score: found.filter((j) => j >= from && j < to).length };
  });
  const chosen: typeof candidates = [];
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score || a.from - b.from)) {
    if (chosen.length === FRAGMENTS) break;
    if (chosen.every((c) => candidate.to <= c.from || candidate.from >= c.to)) chosen.push(candidate);
  }
  chosen.sort((a, b) => a.from - b.from);
  const parts: SnippetPart[] = [];
  chosen.forEach((c, n) => {
    if (n > 0) push(parts, DELIMITER, false);
    for (const part of piece(text, words, c.from, c.to)) push(parts, part.text, part.match);
  });
  return parts;
}

/** The text from word `from` to word `to` (excluded), the words found marked. */
function piece(text: string, words: Word[], from: number, to: number): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (let i = from; i < to; i++) {
    const word = words[i]!;
    if (i > from) push(parts, text.slice(words[i - 1]!.end, word.start), false);
    push(parts, text.slice(word.start, word.end), word.found);
  }
  return parts;
}

/** Appends a piece, joined to the last one when both are (or are not) a match. */
function push(parts: SnippetPart[], text: string, match: boolean): void {
  if (!text) return;
  const last = parts.at(-1);
  if (last && last.match === match) last.text += text;
  else parts.push({ text, match });
}
