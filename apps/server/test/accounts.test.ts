import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { ensureInitialSuper, upsertSuper } from '../src/services/accounts';
import { verifyPassword } from '../src/services/passwords';
import { createTestApp, type TestApp } from './helpers';

/** The super accounts made at start (INITIAL_SUPER_EMAIL) and by the command line. */
describe('super accounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const accounts = (email: string) => t.app.db.select().from(users).where(eq(users.email, email));

  it('is made once when several processes start at the same moment with the same INITIAL_SUPER_EMAIL', async () => {
    // Each call checks, hashes the password, then inserts: started together, all of them check before any inserts.
    const made = await Promise.all(Array.from({ length: 3 }, () => ensureInitialSuper(t.app.db, 'First.Super@Example.test', 'initial-password-1')));
    expect(made.filter(Boolean)).toHaveLength(1);
    const [account, ...others] = await accounts('first.super@example.test');
    expect(others).toHaveLength(0);
    expect(account).toMatchObject({ role: 'super', active: true });
    // An existing account is left as it is at start.
    expect(await ensureInitialSuper(t.app.db, 'first.super@example.test', 'another-password-2')).toBe(false);
    expect(await verifyPassword('initial-password-1', (await accounts('first.super@example.test'))[0]!.passwordHash)).toBe(true);
  });

  it('promotes and re-passwords an existing account from the command line, also when made at the same moment', async () => {
    const results = await Promise.all(Array.from({ length: 3 }, () => upsertSuper(t.app.db, 'cli.super@example.test', 'cli-password-123')));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    await t.app.db.update(users).set({ role: 'contributor', active: false }).where(eq(users.email, 'cli.super@example.test'));
    const again = await upsertSuper(t.app.db, 'CLI.Super@example.test', 'new-cli-password-456');
    expect(again).toEqual({ id: results[0]!.id, created: false });
    const [account] = await accounts('cli.super@example.test');
    expect(account).toMatchObject({ role: 'super', active: true });
    expect(await verifyPassword('new-cli-password-456', account!.passwordHash)).toBe(true);
  });
});
