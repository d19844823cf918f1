/**
 * A small affix-stripping step for Amharic, so that a search for a word finds its inflected forms: "ሙከራ" finds
 * "የሙከራ" (of the test), "ቤት" finds "ቤቶች" (houses) and "በቤቱ" (in the house). Amharic writes prepositions before a
 * word (የ, በ, ለ, ከ, እንደ...) and the article, plural and object after it; a suffix that starts with a vowel changes the
 * vowel of the word's last syllable instead of adding a letter (ቤት + -u = ቤቱ, ቤት + -oč = ቤቶች).
 *
 * The stem of a word: prepositions are taken off its front, then, in turn, its last syllable is written without its
 * vowel (the sixth order of the Ge'ez script: ቱ, ቶ, ታ -> ት) and a suffix is taken off its end, until no suffix is
 * left. Neither step leaves fewer than two syllables, so short words keep their letters. Like every light stemmer it
 * joins a few unrelated words (a word ending in ን or ም as if it carried the suffix), which costs a few extra hits
 * and never a missed one.
 *
 * The same steps run in the database (`search_stem`, written from these lists into a migration by
 * registry-sql.ts) when a record is indexed, and here on the words of a search; a test checks that both agree.
 */

/** Ge'ez syllables: the letters the stemmer reads (digits, punctuation and other scripts pass unchanged). */
export const GEEZ_WORD = /[\u1200-\u1357]+/g;
/** The same range in PostgreSQL's regular expression syntax. */
export const GEEZ_WORD_SQL = '[\u1200-\u1357]+';

/** Prepositions written as part of the next word, longest first so that እንደ is not read as a lone እ. */
export const PREFIXES = ['እንደ', 'እስከ', 'ስለ', 'ወደ', 'ያለ', 'የ', 'በ', 'ለ', 'ከ'] as const;

/**
 * Suffixes, as they end a word whose last syllable has been written without its vowel: their, our, your (plural),
 * the plural -och, the article -u/-w/-wa, the object -n (also -na, "and") and -m ("also"). The fused forms follow
 * from the steps: ቤቶች -> ቤቶ -> ቤት, ሙከራዎች -> ሙከራዎ -> ሙከራው -> ሙከራ, ከተማዋ -> ከተማው -> ከተማ.
 */
export const SUFFIXES = ['ቸው', 'ችን', 'ችህ', 'ች', 'ው', 'ን', 'ም'] as const;

/** The fewest syllables a stripping step leaves. */
export const MIN_STEM = 2;

/** Ge'ez syllables come in rows of eight orders; the sixth (offset 5) is the consonant without a vowel. */
function sixthOrder(codePoint: number): number {
  return codePoint - ((codePoint - 0x1200) % 8) + 5;
}

/** Every syllable that is not of the sixth order, and the sixth-order syllable of its row, as two strings of equal length. */
export const VOWEL_TO_SIXTH = (() => {
  let from = '';
  let to = '';
  for (let cp = 0x1200; cp <= 0x1357; cp++) {
    // Some rows have gaps (unassigned code points): left out.
    if ((cp - 0x1200) % 8 === 5 || !/\p{L}/u.test(String.fromCodePoint(cp))) continue;
    from += String.fromCodePoint(cp);
    to += String.fromCodePoint(sixthOrder(cp));
  }
  return { from, to };
})();

const SIXTH = new Map([...VOWEL_TO_SIXTH.from].map((c, i) => [c, [...VOWEL_TO_SIXTH.to][i]!]));

/** The stem of one Ge'ez word (every character in GEEZ_WORD's range; each is one UTF-16 unit). */
export function stemWord(word: string): string {
  let w = word;
  for (let stripped = true; stripped; ) {
    const prefix = PREFIXES.find((p) => w.startsWith(p) && w.length - p.length >= MIN_STEM);
    stripped = prefix !== undefined;
    if (prefix) w = w.slice(prefix.length);
  }
  for (;;) {
    w = w.slice(0, -1) + (SIXTH.get(w.slice(-1)) ?? w.slice(-1));
    const suffix = SUFFIXES.find((s) => w.endsWith(s) && w.length - s.length >= MIN_STEM);
    if (!suffix) return w;
    w = w.slice(0, -suffix.length);
  }
}

/**
 * Words as the text parser splits them where Ge'ez is written: runs of Ge'ez syllables, Latin letters and digits. A word
 * may mix them: Amharic attaches its prefixes and suffixes to Latin acronyms, names and numbers (የACLED "of ACLED",
 * በUN, TPLFን, በ2013ዓ "in 2013 E.C.", 5ኛ "5th", 1990ዎቹ "the 1990s"), and the parser keeps such a word whole.
 */
export const STEMMED_WORD = /[\u1200-\u1357A-Za-z0-9\u00C0-\u024F]*[\u1200-\u1357][\u1200-\u1357A-Za-z0-9\u00C0-\u024F]*/g;
/** The same in PostgreSQL's regular expression syntax. */
export const STEMMED_WORD_SQL = "[\u1200-\u1357A-Za-z0-9\u00C0-\u024F]*[\u1200-\u1357][\u1200-\u1357A-Za-z0-9\u00C0-\u024F]*";
/** A word's runs of Ge'ez, and of everything else (Latin letters, digits). */
const SCRIPT_RUNS = /[\u1200-\u1357]+|[^\u1200-\u1357]+/g;
export const SCRIPT_RUNS_SQL = '[\u1200-\u1357]+|[^\u1200-\u1357]+';
const NOT_GEEZ_SQL = '[^\u1200-\u1357]';
const IS_GEEZ = /^[\u1200-\u1357]/;
/** Ge'ez made of prepositions only (የ, በ, እንደ, የበ...): what comes before a Latin word or a number as its prefix. */
export const PREFIXES_ONLY_SQL = `^(${PREFIXES.join('|')})+$`;
const PREFIXES_ONLY = new RegExp(PREFIXES_ONLY_SQL);

/**
 * The stems of one word that holds Ge'ez (STEMMED_WORD), separated by a space. A word of Ge'ez alone: its stem. A
 * word mixing Ge'ez with Latin letters or digits: its Latin and digit parts as written (lower-cased by the index),
 * without the prepositions before them and the suffixes after them, so "ACLED" and "የACLED" both find "የACLED"; Ge'ez
 * of a word's middle, or before it and not prepositions, is a word of its own and stemmed.
 */
export function wordStems(word: string): string {
  const runs = word.match(SCRIPT_RUNS) ?? [];
  if (runs.length === 1) return stemWord(word);
  const stems: string[] = [];
  runs.forEach((run, i) => {
    if (!IS_GEEZ.test(run)) stems.push(run);
    else if (i === runs.length - 1 || (i === 0 && PREFIXES_ONLY.test(run))) return;
    else stems.push(stemWord(run));
  });
  return stems.join(' ');
}

/** The text with every word that holds Ge'ez replaced by its stems (other words unchanged): a search's words. */
export function stemText(text: string): string {
  return text.replace(STEMMED_WORD, wordStems);
}

/** The stems the index keeps beside a text's words, in order (what search_stems returns in the database). */
export function textStems(text: string): string {
  return (text.match(STEMMED_WORD) ?? []).map(wordStems).join(' ');
}

const sqlArray = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;

/**
 * The stemmer in SQL: `search_stem(word)` as stemWord, and `search_stems(text)`: the stems of the text's Ge'ez words,
 * separated by spaces (the stemmed copy of a record's text that search_vector indexes beside the text itself).
 */
export function stemmerSql(): string {
  return `CREATE OR REPLACE FUNCTION search_stem(word text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  w text := word;
  affix text;
  stripped boolean := true;
BEGIN
  WHILE stripped LOOP
    stripped := false;
    FOREACH affix IN ARRAY ${sqlArray(PREFIXES)} LOOP
      IF starts_with(w, affix) AND length(w) - length(affix) >= ${MIN_STEM} THEN
        w := substr(w, length(affix) + 1);
        stripped := true;
        EXIT;
      END IF;
    END LOOP;
  END LOOP;
  LOOP
    w := left(w, -1) || translate(right(w, 1), '${VOWEL_TO_SIXTH.from}', '${VOWEL_TO_SIXTH.to}');
    stripped := false;
    FOREACH affix IN ARRAY ${sqlArray(SUFFIXES)} LOOP
      IF right(w, length(affix)) = affix AND length(w) - length(affix) >= ${MIN_STEM} THEN
        w := left(w, -length(affix));
        stripped := true;
        EXIT;
      END IF;
    END LOOP;
    EXIT WHEN NOT stripped;
  END LOOP;
  RETURN w;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_word_stems(word text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  runs text[];
  stems text[] := '{}';
  run_count int;
BEGIN
  IF word !~ '${NOT_GEEZ_SQL}' THEN
    RETURN search_stem(word);
  END IF;
  runs := ARRAY(SELECT r.run[1] FROM regexp_matches(word, '${SCRIPT_RUNS_SQL}', 'g') WITH ORDINALITY AS r(run, n) ORDER BY r.n);
  run_count := cardinality(runs);
  FOR i IN 1 .. run_count LOOP
    IF runs[i] !~ '^${GEEZ_WORD_SQL}' THEN
      stems := stems || runs[i];
    ELSIF NOT (i = run_count OR (i = 1 AND runs[i] ~ '${PREFIXES_ONLY_SQL}')) THEN
      stems := stems || search_stem(runs[i]);
    END IF;
  END LOOP;
  RETURN array_to_string(stems, ' ');
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_stems(content text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(CASE WHEN m.word[1] ~ '${NOT_GEEZ_SQL}' THEN search_word_stems(m.word[1]) ELSE search_stem(m.word[1]) END, ' ' ORDER BY m.n), '') FROM regexp_matches(content, '${STEMMED_WORD_SQL}', 'g') WITH ORDINALITY AS m(word, n)
$$;`;
}
