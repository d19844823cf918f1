// A testimony with a 50 MB video through the submission API into sealed storage (bench/testimony.ts): MB/s against
// the target (>= 20 MB/s) and the server's memory while it streams. Run as its own process, so its memory is its own.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function runTestimony({ root, mb = 50 }) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'testimony.ts'), `--mb=${mb}`], { cwd: root, encoding: 'utf8' });
  const lines = (run.stdout ?? '').trim().split('\n');
  for (const line of lines.slice(0, -1)) console.log(line);
  if (run.status !== 0) {
    console.log(`testimony bench failed (exit ${run.status}): ${(run.stderr ?? '').slice(-2000)}`);
    return null;
  }
  return JSON.parse(lines.at(-1)).testimony;
}
