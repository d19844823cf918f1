import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { loadConfig } from '../src/config';
import { acceptedStep, newRecoveryCodes, recoveryCodeHash, TotpSealer, totpCode } from '../src/services/two-factor';
import { call, createTestApp, createUser, type TestApp } from './helpers';

const PASSWORD = 'sample two factor passphrase';
/** RFC 6238 appendix B's SHA-1 secret ("12345678901234567890") in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes (RFC 6238) and recovery codes', () => {
  it('accepts the RFC test vectors on a fixed clock, one step either side, and never a step twice', () => {
    expect(acceptedStep(RFC_SECRET, '287082', 0, 59_000)).toBe(1);
    expect(acceptedStep(RFC_SECRET, '081804', 0, 1_111_111_109_000)).toBe(37_037_036);
    expect(acceptedStep(RFC_SECRET, '081804', 37_037_036, 1_111_111_109_000)).toBeNull();
    // The previous and next steps are accepted, two steps away is not.
    const now = 1_111_111_109_000;
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), 0, now)).toBe(37_037_035);
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), 0, now)).toBe(37_037_037);
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now + 60_000), 0, now)).toBeNull();
    expect(acceptedStep(RFC_SECRET, 'abcdef', 0, now)).toBeNull();
  });

  it('makes ten distinct recovery codes, hashed whatever the case or dash typed; seals secrets so only the key opens them', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(recoveryCodeHash(codes[0]!.toLowerCase().replace('-', ' '))).toBe(recoveryCodeHash(codes[0]!));
    const sealed = new TotpSealer('s'.repeat(40)).seal(RFC_SECRET);
    expect(sealed).not.toContain(RFC_SECRET);
    expect(new TotpSealer('s'.repeat(40)).open(sealed)).toBe(RFC_SECRET);
    expect(() => new TotpSealer('t'.repeat(40)).open(sealed)).toThrow();
  });

  it('refuses REQUIRE_TWO_FACTOR=off in production', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://x.example.test', MAIL_OUTBOX: 'true', JWT_SECRET: 'j'.repeat(40) };
    expect(() => loadConfig({ ...production, REQUIRE_TWO_FACTOR: 'off' })).toThrow(/REQUIRE_TWO_FACTOR/);
    expect(() => loadConfig({ ...production, REQUIRE_TWO_FACTOR: 'sometimes' })).toThrow(/REQUIRE_TWO_FACTOR/);
  });
});

describe('two factors through the API (REQUIRE_TWO_FACTOR=staff)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REQUIRE_TWO_FACTOR: 'staff' });
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    call(t.app, { method: 'POST', url: `/api/users${url}`, payload: payload as object, headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const trash = (headers: Record<string, string>) => call(t.app, { method: 'GET', url: `${API_BASE}/trash`, headers });

  it('makes an unenrolled admin enrol first, then asks enrolled accounts for a code; codes and recovery codes work once', async () => {
    const admin = await createUser(t.app, 'admin', PASSWORD);
    const first = await post('/signin', { email: admin.email, password: PASSWORD });
    expect(first.body).toEqual({ token: expect.any(String), enrolRequired: true });
    const enrolOnly = bearer(first.body.token);
    const refused = await trash(enrolOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('twoFactorEnrolmentRequired');
    expect((await call(t.app, { method: 'GET', url: '/api/users/me', headers: enrolOnly })).status).toBe(200);

    const begun = await post('/2fa/totp', {}, enrolOnly);
    expect(begun.status).toBe(200);
    expect(begun.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(begun.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const secret: string = begun.body.secret;
    expect((await post('/2fa/totp/confirm', { code: '000000' }, enrolOnly)).body).toEqual({ code: expect.stringMatching(/not right/) });
    const enrolCode = totpCode(secret);
    const confirmed = await post('/2fa/totp/confirm', { code: enrolCode }, enrolOnly);
    expect(confirmed.status).toBe(200);
    const recovery: string[] = confirmed.body.recoveryCodes;
    expect(recovery).toHaveLength(10);
    expect((await trash(enrolOnly)).status).toBe(200);
    const stored = await t.database.query<{ code_hash: string }>('select code_hash from recovery_codes where user_id = $1', [admin.id]);
    expect(stored.map((r) => r.code_hash)).not.toContain(recovery[0]);

    const challenged = await post('/signin', { email: admin.email, password: PASSWORD });
    expect(challenged.body).toEqual({ twoFactorRequired: true, challenge: expect.any(String), methods: ['totp', 'recovery'] });
    // The code that confirmed the enrolment is not accepted a second time.
    const replay = await post('/signin/2fa', { challenge: challenged.body.challenge, code: enrolCode });
    expect(replay.status).toBe(401);
    expect(Object.keys(replay.body)).toEqual(['code']);
    const next = await post('/signin/2fa', { challenge: challenged.body.challenge, code: totpCode(secret, Date.now() + 30_000) });
    expect(next.status).toBe(200);
    expect((await trash(bearer(next.body.token))).status).toBe(200);
    expect((await post('/signin/2fa', { challenge: challenged.body.challenge, code: recovery[0] })).status).toBe(401);

    const withRecovery = await post('/signin', { email: admin.email, password: PASSWORD });
    expect((await post('/signin/2fa', { challenge: withRecovery.body.challenge, code: recovery[0]!.toLowerCase() })).status).toBe(200);
    const reused = await post('/signin', { email: admin.email, password: PASSWORD });
    expect((await post('/signin/2fa', { challenge: reused.body.challenge, code: recovery[0] })).status).toBe(401);

    // Five wrong codes lock the challenge: then even a right one is refused.
    const locked = await post('/signin', { email: admin.email, password: PASSWORD });
    for (let i = 0; i < 5; i++) expect((await post('/signin/2fa', { challenge: locked.body.challenge, code: '999999' })).status).toBe(401);
    const afterLock = await post('/signin/2fa', { challenge: locked.body.challenge, code: recovery[1] });
    expect(afterLock.status).toBe(401);
    expect(Object.keys(afterLock.body)).toEqual(['challenge']);

    // Turning it off takes the account's own factor, ends its other sessions, and is audited.
    const current = bearer(next.body.token);
    expect((await post(`/${admin.id}/2fa/reset`, { code: '123456' }, current)).body).toEqual({ code: expect.stringMatching(/not right/) });
    expect((await post(`/${admin.id}/2fa/reset`, { code: recovery[2] }, current)).status).toBe(200);
    expect((await trash(enrolOnly)).status).toBe(401);
    expect((await trash(current)).status).toBe(200);
    const audit = await t.database.query<{ action: string }>('select action from audit_log where subject = $1 order by seq', [`user:${admin.id}`]);
    expect(audit.map((a) => a.action)).toEqual(['user.2fa.enrol', 'user.2fa.reset']);
  });

  it('lets a contributor sign in with a password alone, and only a super reset another account', async () => {
    const contributor = await createUser(t.app, 'contributor', PASSWORD);
    const signin = await post('/signin', { email: contributor.email, password: PASSWORD });
    expect(signin.body.token).toEqual(expect.any(String));
    const other = await createUser(t.app, 'admin');
    expect((await post(`/${other.id}/2fa/reset`, { code: '123456' }, contributor.auth)).status).toBe(403);
  });
});
