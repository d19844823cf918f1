import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { interfaceLetters, unicodeRange } from '../build/ethiopic-faces';

const webRoot = path.resolve(import.meta.dirname, '..');
const geez = (text: string) => new Set([...text].map((c) => c.codePointAt(0)!).filter((cp) => cp >= 0x1200 && cp <= 0x139f));

describe('the Ethiopic faces the build cuts', () => {
  const { english, amharic } = interfaceLetters(webRoot);

  it('gives the English interface every Ge\'ez letter of its strings, and the Amharic one the rest of its own', () => {
    const en = geez(readFileSync(path.join(webRoot, 'src/locales/en.json'), 'utf8'));
    const am = geez(readFileSync(path.join(webRoot, 'src/locales/am.json'), 'utf8'));
    expect(en.size).toBeGreaterThan(0);
    for (const cp of en) expect(english).toContain(cp);
    for (const cp of am) expect(english.includes(cp) || amharic.includes(cp)).toBe(true);
    expect(amharic.filter((cp) => english.includes(cp))).toEqual([]);
  });

  it('keeps the English face small: the English interface uses few letters', () => {
    expect(english.length).toBeLessThan(amharic.length);
    expect(english.length).toBeLessThan(120);
  });

  it('covers the Ethiopian calendar\'s month names as the Amharic interface writes dates', () => {
    const months = new Intl.DateTimeFormat('am-ET-u-ca-ethiopic', { month: 'long' });
    for (let m = 0; m < 12; m++) {
      for (const cp of geez(months.format(new Date(Date.UTC(2024, m, 20))))) expect([...english, ...amharic]).toContain(cp);
    }
  });

  it('writes code points as CSS ranges, folding runs', () => {
    expect(unicodeRange([0x1200, 0x1201, 0x1202, 0x1208, 0x2d80])).toBe('U+1200-1202, U+1208, U+2D80');
    expect(unicodeRange([])).toBe('');
  });
});
