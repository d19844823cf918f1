import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const UNIT_FILE = path.join(ROOT, 'deploy/evidence-site.service');
const text = readFileSync(UNIT_FILE, 'utf8');

/** The [Service] keys and their values (a key given twice keeps every value). */
const service = new Map<string, string[]>();
let section = '';
for (const line of text.split('\n').map((l) => l.trim())) {
  if (!line || line.startsWith('#')) continue;
  const header = /^\[(\w+)\]$/.exec(line);
  if (header) section = header[1]!;
  else if (section === 'Service') {
    const at = line.indexOf('=');
    service.set(line.slice(0, at), [...(service.get(line.slice(0, at)) ?? []), line.slice(at + 1)]);
  }
}
const one = (key: string) => service.get(key)?.at(-1);
const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const systemdAnalyze = analyze.status === 0;

/** The unit with its checkout paths pointed at this one, so `verify` finds the Node.js it starts. */
function unitHere(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'unit-'));
  const file = path.join(dir, 'evidence-site.service');
  writeFileSync(file, text.replaceAll(one('WorkingDirectory')!, ROOT));
  return file;
}

describe('deploy/evidence-site.service stops and confines the site', () => {
  it('sends SIGTERM to the server alone, which drains and stops its embedded PostgreSQL server itself', () => {
    // control-group (the default) would signal the database with the server, mid-request.
    expect(one('KillMode')).toBe('mixed');
    expect(one('KillSignal')).toBe('SIGTERM');
  });

  it('makes the data folder the only writable path, with no privilege to gain', () => {
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('ReadWritePaths')).toBe(`/var/lib/${one('StateDirectory')}`);
    expect(one('ProtectHome')).toBe('yes');
    expect(one('PrivateTmp')).toBe('yes');
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(service.get('CapabilityBoundingSet')).toEqual(['']);
    expect(one('SystemCallFilter')).toBe('@system-service');
    expect(one('RestrictAddressFamilies')!.split(' ').sort()).toEqual(['AF_INET', 'AF_INET6', 'AF_NETLINK', 'AF_UNIX']);
    // The capture browser runs in a user and network namespace of its own (captures/network-namespace.ts).
    expect(one('RestrictNamespaces')!.split(' ').sort()).toEqual(['net', 'user']);
    // Node.js and Chromium write the machine code they compile: this one would stop both.
    expect(service.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it.skipIf(!systemdAnalyze)('passes `systemd-analyze verify` with no warning (where systemd is installed)', () => {
    const verify = spawnSync('systemd-analyze', ['verify', unitHere()], { encoding: 'utf8' });
    expect(verify.stderr + verify.stdout).toBe('');
    expect(verify.status).toBe(0);
  });

  it.skipIf(!systemdAnalyze)('is rated under 4 by `systemd-analyze security` (where systemd is installed)', () => {
    const security = spawnSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', unitHere()], { encoding: 'utf8' });
    const level = /Overall exposure level for \S+: ([\d.]+)/.exec(security.stdout)?.[1];
    expect(level, security.stdout + security.stderr).toBeDefined();
    expect(Number(level)).toBeLessThan(4);
  });
});
