import { existsSync } from 'node:fs';
import type { Config } from '../../config';
import type { Database } from '../../db';
import { AuditService } from '../../services/audit';
import { previousSigner, signingKeyFile, siteSigner } from '../../services/audit-checkpoints';

const short = (keyId: string) => `${keyId.slice(0, 16)}...`;

/**
 * After a restore: the restored site trusts every key its backup signed with, and this says which key signs from now
 * on: the old one when it was supplied (AUDIT_SIGNING_KEY, or its file put back in the data folder), else a new one,
 * introduced in the audit log, so the operator knows to keep it with the next backups.
 */
export async function adoptSigningKey(database: Database, config: Config, print: (line: string) => void): Promise<void> {
  const keyFile = signingKeyFile(config.dataDir);
  const madeNow = !config.AUDIT_SIGNING_KEY && !existsSync(keyFile);
  const signer = siteSigner(config);
  const audit = new AuditService(database.db, { signer, every: config.AUDIT_CHECKPOINT_EVERY });
  await audit.trustRestoredKeys();
  const before = (await audit.signingKeys()).at(-1) ?? null;
  const voucher = previousSigner(config);
  const vouched = Boolean(before && voucher?.keyId === before.keyId);
  await audit.introduceKey(signer, vouched ? 'new signing key' : 'restored without the previous key', voucher);
  const keys = await audit.signingKeys();
  print(`Audit signing keys this site trusts: ${keys.map((k) => `${short(k.keyId)} (since entry ${k.seq}: ${k.reason})`).join(', ')}.`);
  const source = config.AUDIT_SIGNING_KEY ? 'AUDIT_SIGNING_KEY' : `${keyFile}${madeNow ? ', made now' : ''}`;
  if (!before || before.keyId === signer.keyId) {
    print(`From now on audit checkpoints are signed by key ${short(signer.keyId)} (${source})${before ? ', the key that signed before the backup' : ''}.`);
  } else {
    print(
      `From now on audit checkpoints are signed by a NEW key ${short(signer.keyId)} (${source}); the key that signed before the backup ` +
        `(${short(before.keyId)}) ${vouched ? 'vouched for it' : 'was not supplied: its checkpoints stay trusted, and nothing more is signed with it'}.`,
    );
  }
  print(`Keep ${config.AUDIT_SIGNING_KEY ? 'AUDIT_SIGNING_KEY' : keyFile} with your backups, stored separately from them.`);
}
