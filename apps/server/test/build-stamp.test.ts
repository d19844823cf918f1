import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';

/**
 * `npm start` builds only when a source changed since the last build (scripts/build.mjs keeps the sources' hash beside
 * the build), and says what to do where the build cannot run (an installation without development dependencies).
 * Checked on a small tree of the repository's shape; start-signals.test.ts starts the real one twice.
 */

interface BuildScript {
  sourcesHash(root: string): string;
  buildIsCurrent(root: string): boolean;
  writeStamp(root: string, hash: string): void;
  build(root: string): Promise<void>;
  BuildError: new (message: string) => Error;
}
const ROOT = path.resolve(import.meta.dirname, '../../..');
const script = (await import(pathToFileURL(path.join(ROOT, 'scripts/build.mjs')).href)) as BuildScript;

const tree = mkdtempSync(path.join(os.tmpdir(), 'build-stamp-test-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
  writeFileSync(path.join(tree, file), text);
}

const files = {
  'package.json': '{"name":"test-tree"}',
  'package-lock.json': '{"lockfileVersion":3}',
  'packages/shared/src/index.ts': 'export const shared = 1;',
  'apps/server/src/main.ts': 'console.log("server");',
  'apps/web/index.html': '<div id="app"></div>',
  'apps/web/src/main.tsx': 'export const web = 1;',
  'apps/web/src/main.test.tsx': 'it("is a test", () => {});',
  'apps/web/test/screens.test.tsx': 'it("is a test", () => {});',
  // What a build makes:
  'apps/server/dist/main.js': 'built',
  'apps/web/dist/index.html': 'built',
  'apps/web/dist-ssr/entry-server.js': 'built',
};
for (const [file, text] of Object.entries(files)) write(file, text);
const restamp = () => script.writeStamp(tree, script.sourcesHash(tree));

it('a build without a stamp is not trusted; with the stamp of the sources it is current', () => {
  expect(script.buildIsCurrent(tree)).toBe(false);
  restamp();
  expect(script.buildIsCurrent(tree)).toBe(true);
});

it('stays current when only times, tests or outputs change', () => {
  restamp();
  const later = new Date(Date.now() + 60_000);
  utimesSync(path.join(tree, 'apps/web/src/main.tsx'), later, later);
  write('apps/web/src/main.test.tsx', 'it("changed", () => {});');
  write('apps/web/test/screens.test.tsx', 'it("changed", () => {});');
  write('apps/web/dist/index.html', 'built again by hand');
  expect(script.buildIsCurrent(tree)).toBe(true);
});

it('is out of date when a source of the web app, the server, the shared package or the lockfile changes', () => {
  for (const file of ['apps/web/src/main.tsx', 'apps/web/index.html', 'apps/server/src/main.ts', 'packages/shared/src/index.ts', 'package-lock.json']) {
    restamp();
    write(file, `${files[file as keyof typeof files]} // changed`);
    expect(script.buildIsCurrent(tree), file).toBe(false);
  }
  restamp();
  write('apps/web/src/new-screen.tsx', 'export const added = 1;');
  expect(script.buildIsCurrent(tree), 'a new file').toBe(false);
});

it('is out of date when an output is missing', () => {
  restamp();
  rmSync(path.join(tree, 'apps/web/dist-ssr'), { recursive: true });
  expect(script.buildIsCurrent(tree)).toBe(false);
});

it('an installation without development dependencies is told how to build and start instead of "vite: not found"', async () => {
  const err = await script.build(tree).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(script.BuildError);
  expect((err as Error).message).toMatch(/development dependencies \(vite, esbuild not installed: was it installed with --omit=dev\?\)/);
  expect((err as Error).message).toContain('npm ci && npm run build');
  expect((err as Error).message).toContain('npm run serve');
  expect((err as Error).message).toContain('docs/deploy.md');
});
