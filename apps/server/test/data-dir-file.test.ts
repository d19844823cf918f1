import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileMadeOnce } from '../src/data-dir-file';

describe('a file the site makes once in its data folder', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'made-once-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is made whole, readable by the site only, and read as it is afterwards without making another', () => {
    const file = path.join(dir, 'nested', 'key.pem');
    expect(fileMadeOnce(file, () => 'made\n')).toBe('made\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(fileMadeOnce(file, () => 'another\n')).toBe('made\n');
  });

  it('keeps the file another process placed while this one was making its own, and leaves no draft behind', () => {
    const file = path.join(dir, 'raced.pem');
    // Another server on the same data folder places its file between this one's check and its placing.
    const got = fileMadeOnce(file, () => {
      writeFileSync(file, 'placed first\n', { mode: 0o600 });
      return 'placed second\n';
    });
    expect(got).toBe('placed first\n');
    expect(readFileSync(file, 'utf8')).toBe('placed first\n');
    expect(readdirSync(dir).filter((name) => name.startsWith('raced.pem'))).toEqual(['raced.pem']);
  });
});
