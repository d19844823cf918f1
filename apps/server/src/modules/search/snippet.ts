import { markdownToPlainText, type SnippetPart } from '@app/shared';
import { wordStems } from '../../db/amharic';
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
const WORD_CHARACTER = /[\p{L}\p{M}\p{N}]/u;
const WORDS = /[\p{L}\p{M}\p{N}]+/gu;
const HAS_GEEZ = /[\u1200-\u1357]/;
const isGeezUnit = (code: number) => code >= 0x1200 && code <= 0x1357;

/**
 * Whether each UTF-16 unit of the Basic Multilingual Plane is a word character (1) or not (2), learnt from
 * WORD_CHARACTER as met (0: not asked yet). Scanning a hit's text unit by unit against this table is several times
 * cheaper than a global Unicode-property regex run word by word, which was the larger part of a search's own CPU.
 */
const WORD_UNITS = new Uint8Array(0x10000);

function isWordCodePoint(code: number): boolean {
  if (code > 0xffff) return WORD_CHARACTER.test(String.fromCodePoint(code));
  let known = WORD_UNITS[code]!;
  if (!known) WORD_UNITS[code] = known = WORD_CHARACTER.test(String.fromCharCode(code)) ? 1 : 2;
  return known === 1;
}

/**
 * A word as the index keeps it: lower case; a word with Ge'ez by its stems (db/amharic.ts): an Amharic word's stem,
 * the Latin or digit parts of a word that mixes them (የACLED: acled).
 */
function keysOf(word: string): string[] {
  return HAS_GEEZ.test(word) ? wordStems(word).toLowerCase().split(' ') : [word.toLowerCase()];
}

/**
 * Whether the word from `start` to `end` of `text` is one of `terms`, without cutting out, lower-casing or stemming the
 * many words whose length rules them out.
 */
function isTermAt(text: string, start: number, end: number, terms: ReadonlySet<string>, lengths: ReadonlySet<number>): boolean {
  // Amharic affixes stand at a word's ends, so a word that mixes scripts (የACLED, TPLFን) starts or ends with Ge'ez.
  if (isGeezUnit(text.charCodeAt(start)) || isGeezUnit(text.charCodeAt(end - 1))) return keysOf(text.slice(start, end)).some((key) => terms.has(key));
  return lengths.has(end - start) && terms.has(text.slice(start, end).toLowerCase());
}

/** The words of `q` a snippet marks: every word not left out (`-word`, `-"a phrase"`), as the index keeps it. */
export function highlightTerms(q: string): Set<string> {
  const terms = new Set<string>();
  for (const token of normaliseSearchText(q).match(/-?"[^"]*"?|\S+/g) ?? []) {
    if (token.startsWith('-') || token.toLowerCase() === 'or') continue;
    for (const word of token.match(WORDS) ?? []) for (const key of keysOf(word)) terms.add(key);
  }
  return terms;
}

/** The words of a text: where each starts and ends (flat arrays: a hit's text has a few hundred words), which were found. */
interface Words {
  starts: number[];
  ends: number[];
  /** Indexes of the words found, ascending. */
  found: number[];
}

/** The lengths of the terms, so most words are ruled out without lower-casing: kept per set of terms (one per search). */
const termLengths = new WeakMap<ReadonlySet<string>, ReadonlySet<number>>();

function wordsOf(text: string, terms: ReadonlySet<string>): Words {
  let lengths = termLengths.get(terms);
  if (!lengths) termLengths.set(terms, (lengths = new Set([...terms].map((term) => term.length))));
  const words: Words = { starts: [], ends: [], found: [] };
  let start = -1;
  for (let i = 0; i <= text.length; ) {
    const code = i < text.length ? text.codePointAt(i)! : -1;
    const inWord = code !== -1 && isWordCodePoint(code);
    if (inWord && start === -1) start = i;
    else if (!inWord && start !== -1) {
      if (isTermAt(text, start, i, terms, lengths)) words.found.push(words.starts.length);
      words.starts.push(start);
      words.ends.push(i);
      start = -1;
    }
    i += code > 0xffff ? 2 : 1;
  }
  return words;
}

/** The snippet of `text` for the words `terms` (highlightTerms); a description's markdown is read as plain text. */
export function snippetOf(markdown: string | null, terms: ReadonlySet<string>): SnippetPart[] {
  if (!markdown || !terms.size) return [];
  // Shown as plain text: "**" or a link's address would otherwise show between the words. Text without markdown is
  // read as it is, its spacing evened out only between the words shown (piece): a copy of each hit's whole text with
  // its spacing evened was a sixth of what a search for a rare word allocated.
  const text = markdownToPlainText(markdown, 'asIs');
  const words = wordsOf(text, terms);
  const count = words.starts.length;
  if (!count) return [];
  const { found } = words;
  if (!found.length) return piece(text, words, 0, Math.min(count, OPENING_WORDS));
  // The pieces holding the most words found, earliest first among equals, that do not overlap. A piece starts a few
  // words before a word found; the words found inside it are counted by two pointers moving forward (both ends only grow).
  const candidates: { from: number; to: number; score: number }[] = [];
  let first = 0;
  let past = 0;
  for (const i of found) {
    const from = Math.max(0, Math.min(i - LEAD_WORDS, count - FRAGMENT_WORDS));
    const to = Math.min(count, from + FRAGMENT_WORDS);
    while (found[first]! < from) first++;
    while (past < found.length && found[past]! < to) past++;
    candidates.push({ from, to, score: past - first });
  }
  const chosen: typeof candidates = [];
  for (const candidate of candidates.sort((a, b) => b.score - a.score || a.from - b.from)) {
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
function piece(text: string, { starts, ends, found }: Words, from: number, to: number): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let next = found.findIndex((i) => i >= from);
  for (let i = from; i < to; i++) {
    if (i > from) push(parts, evenSpacing(text.slice(ends[i - 1]!, starts[i]!)), false);
    const isFound = next !== -1 && found[next] === i;
    if (isFound) next = next + 1 < found.length ? next + 1 : -1;
    push(parts, text.slice(starts[i]!, ends[i]!), isFound);
  }
  return parts;
}

/** What lies between two words, with each run of spaces, tabs and line breaks as one space (as markdownToPlainText gives it). */
function evenSpacing(between: string): string {
  return between === ' ' ? between : between.replace(/\s+/g, ' ');
}

/** Appends a piece, joined to the last one when both are (or are not) a match. */
function push(parts: SnippetPart[], text: string, match: boolean): void {
  if (!text) return;
  const last = parts.at(-1);
  if (last && last.match === match) last.text += text;
  else parts.push({ text, match });
}
