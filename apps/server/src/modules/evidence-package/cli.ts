import { createWriteStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { CATEGORY_SLUGS, type CategorySlug } from '@app/shared';
import { loadConfig } from '../../config';
import type { Database } from '../../db';
import { AuditService } from '../../services/audit';
import { siteSigner } from '../../services/audit-checkpoints';
import { TimestampTrust } from '../../services/timestamping';
import { CaptureSigner } from '../captures/signing';
import { MediaService } from '../media/service';
import { createStorage, S3Storage } from '../media/storage';
import { startPackage } from './package';
import { verifyPackage } from './verify';

/**
 * `package <category>/<id> <out.zip> [--withheld include --confirm]`: the evidence package of one record, written by
 * the site's operator (the audit entry names no account: the command line's). `verify-package <file.zip> [--key
 * <audit key>] [--capture-key <pem>] [--tsa-ca <pem>]`: checks a package offline.
 */

const SYSTEM_ACTOR = { id: '00000000-0000-0000-0000-000000000000', role: 'super' as const };

function flag(args: string[], name: string): string | null {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? '') : null;
}

export const packageCommand = {
  usage: 'package <category>/<id> <out.zip> [--withheld include --confirm]   write a record\'s evidence package (BagIt zip)',
  async run(args: string[], database: Database) {
    const [target, out] = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--withheld');
    const [category, id] = (target ?? '').split('/');
    const withheld = flag(args, '--withheld');
    if (!category || !id || !out || !(CATEGORY_SLUGS as readonly string[]).includes(category) || !/^[0-9a-f-]{36}$/i.test(id)) {
      console.error('package: usage: package <category>/<id> <out.zip> [--withheld include --confirm]');
      return 2;
    }
    if (withheld !== null && (withheld !== 'include' || !args.includes('--confirm'))) {
      console.error('package: withheld witness testimony is put in a package only with --withheld include --confirm (the package then names witnesses)');
      return 2;
    }
    const config = loadConfig();
    const storage = createStorage(config);
    const services = {
      db: database.db,
      storage,
      media: new MediaService(database.db, storage),
      audit: new AuditService(database.db, { signer: siteSigner(config), every: config.AUDIT_CHECKPOINT_EVERY }),
      config,
      capturePublicKeyPem: CaptureSigner.forDataDir(config.dataDir).publicKeyPem,
    };
    try {
      const started = await startPackage(services, { category: category as CategorySlug, id, actor: SYSTEM_ACTOR, includeWithheld: withheld === 'include', via: 'command line' });
      if (!started) {
        console.error(`package: there is no live ${category} record ${id}`);
        return 1;
      }
      await pipeline(started.stream, createWriteStream(out, { flags: 'wx', mode: 0o600 }));
      const result = await started.finished;
      console.log(`Wrote ${out}: ${result.bytes} bytes, SHA-256 ${result.sha256} (recorded in the audit log)`);
      return 0;
    } finally {
      if (storage instanceof S3Storage) storage.destroy();
    }
  },
};

export const verifyPackageCommand = {
  usage: 'verify-package <file.zip> [--key <audit key pem>] [--capture-key <pem>] [--tsa-ca <pem>]   check an evidence package offline',
  offline: true as const,
  async run(args: string[]) {
    const file = args.find((a, i) => !a.startsWith('--') && !['--key', '--capture-key', '--tsa-ca'].includes(args[i - 1] ?? ''));
    const key = flag(args, '--key');
    const captureKey = flag(args, '--capture-key');
    const ca = flag(args, '--tsa-ca');
    if (!file || key === '' || captureKey === '' || ca === '') {
      console.error('verify-package: usage: verify-package <file.zip> [--key <audit key pem>] [--capture-key <capture key pem>] [--tsa-ca <pem bundle>]');
      return 2;
    }
    let options;
    try {
      options = {
        publicKeyPem: key ? readFileSync(key, 'utf8') : null,
        capturePublicKeyPem: captureKey ? readFileSync(captureKey, 'utf8') : null,
        tsaTrust: ca ? TimestampTrust.fromPem(readFileSync(ca, 'utf8')) : TimestampTrust.unchecked,
      };
    } catch (err) {
      console.error(`verify-package: ${(err as Error).message}`);
      return 2;
    }
    const report = await verifyPackage(file, options);
    for (const check of report.checks) console.log(`${check.note ? 'NOTE' : check.ok ? 'OK  ' : 'FAIL'} ${check.what}`);
    const failed = report.checks.filter((c) => !c.ok).length;
    console.log(report.ok ? `${file}: every check holds.` : `${file}: does NOT verify (${failed} checks failed).`);
    return report.ok ? 0 : 1;
  },
};
