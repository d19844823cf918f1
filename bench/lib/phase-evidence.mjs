// The evidence package part (`--only=evidence`): bench/evidence-package.ts in a process of its own (its peak memory
// is that process's), an incident of 200 people, 500 originals, 50 captures; `--evidence-mb` sets the originals'
// total size (default 200; the figure is 2000). Prints and returns its figures.
import path from 'node:path';
import { run } from './proc.mjs';
import { ROOT } from './site.mjs';

export async function runEvidence({ mb }) {
  console.log(`\n== Evidence package: 200 people, 500 originals (${mb} MB), 50 captures ==`);
  const res = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/evidence-package.ts'), `--mb=${mb}`], { cwd: ROOT, timeoutMs: 60 * 60_000, echo: true });
  const line = res.stdout.split('\n').find((l) => l.startsWith('{'));
  if (res.code !== 0 || !line) throw new Error(`evidence package bench failed (exit ${res.code}): ${res.stderr.slice(-500)}`);
  const figures = JSON.parse(line);
  console.log(
    `package ${figures.packageMB} MB in ${figures.packageSeconds} s: ${figures.packageMBs} MB/s (the disk reads the originals at ${figures.diskReadMBs} MB/s); ` +
      `peak memory ${figures.peakRssAboveStartMB} MB above the process's before packaging (${figures.peakRssMB} MB in all, most of it the in-memory database); ` +
      `verify-package ${figures.verifySeconds} s, ${figures.verified ? 'verifies' : 'does NOT verify'}`,
  );
  return figures;
}
