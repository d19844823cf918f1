import { eq } from 'drizzle-orm';
import type { Database } from '../../db';
import { users } from '../../db/schema';
import { readSecret } from '../../cli-input';
import { AuditService } from '../../services/audit';
import { createIntakeKey, currentIntakeKey, MIN_PASSPHRASE } from './keys';
import { canReview } from './review';

/**
 * `npm run admin -- intake-key create <reviewer e-mail> [--replace]`: the key ceremony's first step (docs/testimony.md).
 * The passphrase is read at a prompt or from standard input, never from the command line; the recovery key is
 * printed once, to standard output, and kept nowhere.
 */
export const intakeKeyCommand = {
  usage: 'intake-key create <email> [--replace]  create the testimony intake key for a reviewer (passphrase asked or on standard input; prints the recovery key once)',
  async prepare(args: string[]): Promise<string[] | number> {
    const [action, email, ...rest] = args;
    const replace = rest.includes('--replace');
    if (action !== 'create' || !email || !/^[^@\s]+@[^@\s]+$/.test(email) || rest.some((r) => r !== '--replace')) {
      console.error('intake-key: use `intake-key create <reviewer e-mail> [--replace]`');
      return 2;
    }
    let passphrase: string;
    try {
      passphrase = await readSecret(`Passphrase for ${email} (at least ${MIN_PASSPHRASE} characters, not shown): `);
    } catch {
      console.error('intake-key: cancelled; nothing was changed');
      return 130;
    }
    if (passphrase.length < MIN_PASSPHRASE) {
      console.error(`intake-key: the passphrase must be at least ${MIN_PASSPHRASE} characters`);
      return 2;
    }
    return [email.toLowerCase(), passphrase, replace ? 'replace' : ''];
  },
  async run([email, passphrase, replace]: string[], database: Database): Promise<number> {
    const [user] = await database.db.select().from(users).where(eq(users.email, email!));
    if (!user || !canReview(user)) {
      console.error(`intake-key: ${email} is not an active account that reviews testimonies`);
      return 2;
    }
    if ((await currentIntakeKey(database.db)) && replace !== 'replace') {
      console.error('intake-key: there is already an intake key; give --replace to make a new one (earlier testimonies stay readable with the old one)');
      return 2;
    }
    const { keyId, recoveryKey } = await createIntakeKey(database.db, user.id, passphrase!);
    await new AuditService(database.db).append({ actor: null, action: 'testimony.key-created', subject: `intake-key:${keyId}`, changes: {} });
    console.error(`Created the intake key, unlocked by ${email}'s passphrase. The recovery key follows, shown this once: write it on paper and keep it offline.`);
    console.log(recoveryKey);
    return 0;
  },
};
