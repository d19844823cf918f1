/// <reference types="node" />
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import subsetFont from 'subset-font';
import type { Plugin } from 'vite';

/**
 * Noto Sans Ethiopic in three faces of one family, so a page downloads only the letters it shows:
 *
 * - `interface-en`: the Ge'ez letters of the English interface (the language switch's "አማርኛ", the home page's
 *   Amharic line): a few KB, the only Ethiopic bytes an English page without Amharic record text loads;
 * - `interface-am`: the other letters of the Amharic interface (its strings, the about page, the regions' names, the
 *   Ethiopian calendar's month names);
 * - `full`: the whole Ethiopic face, its unicode-range every Ethiopic letter the two above leave out, so it loads
 *   only where record text uses one of them.
 *
 * The browser picks the face of each letter by unicode-range and downloads a face only when the page has a letter
 * of its range; the three are cut from the same font, so a line mixing them reads as one face. The subsets are made
 * at build time from the sources (so a new string cannot miss its letters), written to `.generated/` (git-ignored)
 * and declared where styles.css says `/* ethiopic-faces *\/`.
 */

const ETHIOPIC_RANGES: Array<[number, number]> = [
  [0x030e, 0x030e],
  [0x1200, 0x1399],
  [0x2d80, 0x2dde],
  [0xab01, 0xab2e],
  [0x1e7e0, 0x1e7fe],
];
const isEthiopic = (cp: number) => ETHIOPIC_RANGES.some(([from, to]) => cp >= from && cp <= to);

const MARKER = '/* ethiopic-faces */';

function lettersOf(text: string, into: Set<number>): void {
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    // U+030E is a combining mark Noto Sans Ethiopic carries, not a letter of the script: it stays with the full face.
    if (cp !== 0x030e && isEthiopic(cp)) into.add(cp);
  }
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The Ethiopian calendar's names as the Amharic interface writes dates (lib/dates.ts): every month and the era. */
function calendarText(): string {
  const format = new Intl.DateTimeFormat('am-ET-u-ca-ethiopic', { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', weekday: 'long' });
  const parts: string[] = [];
  for (let day = 0; day < 380; day += 3) parts.push(format.format(new Date(Date.UTC(2024, 0, 1 + day, 9))));
  return parts.join(' ');
}

/** The interface's Ge'ez letters: those of the English interface, and the rest of the Amharic one's. */
export function interfaceLetters(webRoot: string): { english: number[]; amharic: number[] } {
  const english = new Set<number>();
  lettersOf(readFileSync(path.join(webRoot, 'src/locales/en.json'), 'utf8'), english);
  lettersOf(readFileSync(path.join(webRoot, 'src/lib/translate.ts'), 'utf8'), english);
  const all = new Set<number>();
  for (const file of filesUnder(path.join(webRoot, 'src'), /\.(json|tsx?|md)$/)) lettersOf(readFileSync(file, 'utf8'), all);
  for (const file of filesUnder(path.join(webRoot, '../../packages/shared/src'), /\.ts$/)) lettersOf(readFileSync(file, 'utf8'), all);
  lettersOf(calendarText(), all);
  const amharic = [...all].filter((cp) => !english.has(cp));
  return { english: [...english].sort((a, b) => a - b), amharic: amharic.sort((a, b) => a - b) };
}

/** Code points as a CSS unicode-range: runs of consecutive points folded into ranges. */
export function unicodeRange(points: number[]): string {
  const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const runs: string[] = [];
  for (let i = 0; i < points.length; ) {
    let j = i;
    while (j + 1 < points.length && points[j + 1] === points[j]! + 1) j++;
    runs.push(i === j ? hex(points[i]!) : `${hex(points[i]!)}-${hex(points[j]!).slice(2)}`);
    i = j + 1;
  }
  return runs.join(', ');
}

/** Every Ethiopic code point the given ones leave out. */
function complement(taken: Set<number>): number[] {
  const rest: number[] = [];
  for (const [from, to] of ETHIOPIC_RANGES) for (let cp = from; cp <= to; cp++) if (!taken.has(cp)) rest.push(cp);
  return rest;
}

function fontFace(url: string, range: string): string {
  // local() first: a device that has the font (Android ships it, as do many Linux systems) uses its own.
  return `@font-face {
  font-family: 'Noto Sans Ethiopic';
  font-style: normal;
  font-weight: 400;
  font-display: swap;
  src: local('Noto Sans Ethiopic'), local('NotoSansEthiopic-Regular'), url('${url}') format('woff2');
  unicode-range: ${range};
}`;
}

function writeIfChanged(file: string, bytes: Buffer): void {
  if (existsSync(file) && readFileSync(file).equals(bytes)) return;
  writeFileSync(file, bytes);
}

export function ethiopicFaces(webRoot: string): Plugin {
  const require = createRequire(import.meta.url);
  const fullFace = require.resolve('@fontsource/noto-sans-ethiopic/files/noto-sans-ethiopic-ethiopic-400-normal.woff2');
  const outDir = path.join(webRoot, '.generated/fonts');
  let faces = '';

  async function makeFaces(): Promise<void> {
    const { english, amharic } = interfaceLetters(webRoot);
    const source = readFileSync(fullFace);
    mkdirSync(outDir, { recursive: true });
    const subset = async (name: string, points: number[]) => {
      const bytes = await subsetFont(source, String.fromCodePoint(...points), { targetFormat: 'woff2' });
      // The name carries the letters' hash: Vite fingerprints the file anyway, this keeps a stale copy from being read.
      const file = path.join(outDir, `ethiopic-${name}-${createHash('sha256').update(String(points)).digest('hex').slice(0, 8)}.woff2`);
      writeIfChanged(file, bytes);
      return file;
    };
    const [englishFile, amharicFile] = await Promise.all([subset('interface-en', english), subset('interface-am', amharic)]);
    const rest = complement(new Set([...english, ...amharic]));
    // Relative to styles.css, where the faces are declared: Vite resolves and fingerprints the files from there.
    const fromStyles = (file: string) => path.relative(path.join(webRoot, 'src'), file).replaceAll('\\', '/');
    faces = [
      fontFace(fromStyles(englishFile), unicodeRange(english)),
      fontFace(fromStyles(amharicFile), unicodeRange(amharic)),
      fontFace('@fontsource/noto-sans-ethiopic/files/noto-sans-ethiopic-ethiopic-400-normal.woff2', unicodeRange(rest)),
    ].join('\n');
  }

  return {
    name: 'ethiopic-faces',
    enforce: 'pre',
    async buildStart() {
      await makeFaces();
    },
    transform(code, id) {
      if (!id.split('?')[0]!.endsWith('/src/styles.css') || !code.includes(MARKER)) return null;
      return { code: code.replace(MARKER, faces), map: null };
    },
  };
}
