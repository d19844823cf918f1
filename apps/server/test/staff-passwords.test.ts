import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/modules/users/one-time-tokens';
import { staffPasswordProblem } from '../src/modules/users/password-policy';
import { call, createTestApp, createUser, type TestApp } from './helpers';

/** Staff passwords are checked for strength (zxcvbn-ts, its shipped dictionaries, no network). Test data only. */
describe('staff password strength', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('refuses guessable passwords for staff and keeps long passphrases', () => {
    expect(staffPasswordProblem('Password123!x')).toMatch(/too easy to guess for a staff account/);
    expect(staffPasswordProblem('qwertyuiop1')).toMatch(/too common/);
    expect(staffPasswordProblem('sample test passphrase one')).toBeNull();
  });

  it('refuses a weak new password on an admin reset, keyed by password, and takes it for a contributor', async () => {
    const weak = 'Password123!x';
    for (const [role, status] of [['admin', 400], ['contributor', 200]] as const) {
      const user = await createUser(t.app, role);
      const token = await issueToken(t.app.db, user.id, 'reset');
      const res = await call(t.app, { method: 'POST', url: `/api/users/resetpassword/${token}`, payload: { email: user.email, password: weak, password2: weak } });
      expect(res.status, role).toBe(status);
      if (status === 400) expect(Object.keys(res.body)).toEqual(['password']);
    }
  });
});
