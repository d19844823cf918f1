import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from '../helpers';
import { linkToken, outboxMessages, uniqueEmail, waitFor } from '../users-mail-helpers';
import { HOURLY_LIMIT, REPRESENTATIVE_DAILY_LIMIT } from '../../src/modules/campaign/limits';

/**
 * Abuse of the account and campaign endpoints. Brute force is throttled per account and address
 * and per address without locking the owner out; sign-up, forgot-password and resend-activation tell nothing about
 * which e-mails have accounts, by answer or by timing; e-mailed links work once and expire; campaign letters are
 * limited per sender, per address and per representative, also when sent at the same moment. Test data only.
 */
const PUBLIC_URL = 'https://abuse-test.example.test';
const PASSWORD = 'sample abuse test passphrase';
const TRIES = Number(process.env.TIMING_TRIES ?? 50);

let ipCounter = 0;
/** A new client address per call unless a test wants one address. */
const uniqueIp = () => `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${++ipCounter & 255}`;

describe('abuse of the account and campaign endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL, TRUST_PROXY: 'true' });
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown, ip = uniqueIp(), headers: Record<string, string> = {}) =>
    call(t.app, { method: 'POST', url, payload: payload as object, remoteAddress: ip, headers });

  describe('sign-in brute force', () => {
    it('blocks the guessing address per account and per IP; the owner signs in from another address', async () => {
      const owner = await createUser(t.app, 'contributor', PASSWORD);
      const attacker = uniqueIp();
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await post('/api/users/signin', { email: owner.email, password: `wrong guess ${i}` }, attacker)).status);
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
      // Even the right password from the guessing address waits.
      expect((await post('/api/users/signin', { email: owner.email, password: PASSWORD }, attacker)).status).toBe(429);
      const owners = await post('/api/users/signin', { email: owner.email, password: PASSWORD }, uniqueIp());
      expect(owners.status).toBe(200);

      // One address spraying one password over many accounts is stopped after 5.
      const sprayer = uniqueIp();
      const spray: number[] = [];
      for (let i = 0; i < 8; i++) spray.push((await post('/api/users/signin', { email: uniqueEmail('spray'), password: 'Summer2026!' }, sprayer)).status);
      expect(spray).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      console.log(`abuse: sign-in guesses from one address: ${statuses.filter((s) => s === 401).length} answered, ${statuses.filter((s) => s === 429).length} refused (429); owner from another address: ${owners.status}`);
    });

    it('takes the client address from X-Forwarded-For behind a trusted proxy, so one proxy does not lock out everyone', async () => {
      const owner = await createUser(t.app, 'contributor', PASSWORD);
      const proxy = '127.0.0.1';
      for (let i = 0; i < 5; i++) {
        expect((await post('/api/users/signin', { email: owner.email, password: `wrong ${i}` }, proxy, { 'x-forwarded-for': '203.0.113.66' })).status).toBe(401);
      }
      expect((await post('/api/users/signin', { email: owner.email, password: PASSWORD }, proxy, { 'x-forwarded-for': '203.0.113.66' })).status).toBe(429);
      expect((await post('/api/users/signin', { email: owner.email, password: PASSWORD }, proxy, { 'x-forwarded-for': '203.0.113.67' })).status).toBe(200);
    });

    it('caps guesses at one account from many addresses (50 in 15 minutes)', async () => {
      const owner = await createUser(t.app, 'contributor', PASSWORD);
      let refusedAt = 0;
      for (let i = 1; i <= 60 && !refusedAt; i++) {
        const res = await post('/api/users/signin', { email: owner.email, password: `distributed guess ${i}` });
        if (res.status === 429) refusedAt = i;
        else expect(res.status).toBe(401);
      }
      expect(refusedAt).toBe(51);
    });
  });

  describe('account enumeration', () => {
    let active: { email: string };
    let inactive: string;
    beforeAll(async () => {
      active = await createUser(t.app, 'contributor', PASSWORD);
      inactive = uniqueEmail('inactive');
      expect((await post('/api/users/signup', signupBody(inactive))).status).toBe(201);
      await t.app.settleAccountWork();
    });

    function signupBody(email: string) {
      return { firstName: 'Sample', lastName: 'Enumeration', email, password: PASSWORD, password2: PASSWORD };
    }

    /** Answer time of one request in ms, with the work it left behind finished outside the measured time. */
    async function timed(url: string, body: unknown) {
      const start = process.hrtime.bigint();
      const res = await post(url, body);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      await t.app.settleAccountWork();
      return { res, ms };
    }

    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    };

    /**
     * Medians of TRIES answers for each kind of e-mail, taken in turns (a burst of load from other work on the
     * machine lands on every kind alike). The difference tested is that of the medians of each answer's time relative
     * to the others of its turn: load that slows a whole turn (the password hash of sign-up runs on a thread pool that
     * other work on a shared machine also uses) cancels out, a cost that only one kind pays does not. A round over 10 %
     * is measured again, up to three rounds: a real difference shows in every round, noise does not.
     */
    async function compareTimings(name: string, url: string, kinds: Record<string, () => unknown>) {
      const rounds: string[] = [];
      let best = Infinity;
      for (let round = 0; round < 3 && best >= 0.1; round++) {
        const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
        const answers = new Map<string, string>();
        const order = Object.entries(kinds);
        for (let i = 0; i < TRIES; i++) {
          // Each kind follows each other kind as often: what one request leaves behind (garbage to collect, a file
          // written) slows the next one, whatever its e-mail.
          for (const [kind, body] of [...order.slice(i % order.length), ...order.slice(0, i % order.length)]) {
            const { res, ms } = await timed(url, body());
            times[kind]!.push(ms);
            answers.set(kind, `${res.status} ${res.raw.body}`);
          }
        }
        // Identical answers, whatever the e-mail.
        expect(new Set(answers.values()).size, JSON.stringify([...answers])).toBe(1);
        const medians = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
        const names = Object.keys(times);
        const relative = Object.fromEntries(
          names.map((k) => [k, median(times[k]!.map((ms, i) => ms / (names.reduce((sum, n) => sum + times[n]![i]!, 0) / names.length)))]),
        );
        const values = Object.values(relative);
        const spread = (Math.max(...values) - Math.min(...values)) / Math.max(...values);
        best = Math.min(best, spread);
        rounds.push(`${Object.entries(medians).map(([k, v]) => `${k} ${v.toFixed(2)} ms`).join(', ')} (difference of the medians relative to each turn ${(spread * 100).toFixed(1)} %)`);
      }
      console.log(`abuse: ${name} timing over ${TRIES} tries each, medians: ${rounds.join('; then ')}`);
      expect(best).toBeLessThan(0.1);
    }

    /** A new e-mail of the same length as `email`, so only whether it has an account differs. */
    const sameShape = (email: string) => email.replace(/^[^@]{8}/, () => Math.random().toString(36).slice(2, 10).padEnd(8, 'q'));

    it('sign-up answers alike for a new and a taken e-mail, in the same time', async () => {
      await compareTimings('sign-up', '/api/users/signup', {
        new: () => signupBody(sameShape(active.email)),
        taken: () => signupBody(active.email),
        'taken, not activated': () => signupBody(inactive),
      });
    }, 300_000);

    it('forgot-password answers alike for an account and for none, in the same time', async () => {
      await compareTimings('forgot-password', '/api/users/forgotpassword', {
        account: () => ({ email: active.email }),
        none: () => ({ email: sameShape(active.email) }),
      });
    }, 300_000);

    it('resend-activation answers alike for an inactive, an active and no account, in the same time', async () => {
      await compareTimings('resend-activation', '/api/users/resend-activation', {
        inactive: () => ({ email: inactive }),
        active: () => ({ email: active.email }),
        none: () => ({ email: sameShape(inactive) }),
      });
    }, 300_000);
  });

  describe('e-mailed links', () => {
    const token = (email: string, route: '/user/activation/' | '/resetpassword/', nth = 1) =>
      waitFor(() => {
        const found = outboxMessages(t.dataDir, email).map((raw) => linkToken(raw, PUBLIC_URL, route)).filter(Boolean);
        return found.length >= nth ? found[nth - 1] : null;
      }, `${route} link ${nth} to ${email}`);

    it('work once, expire, and a reset retires older reset links and every earlier sign-in token', async () => {
      const email = uniqueEmail('links');
      await post('/api/users/signup', { firstName: 'Sample', lastName: 'Links', email, password: PASSWORD, password2: PASSWORD });
      const activation = await token(email, '/user/activation/');
      expect((await post(`/api/users/user/activation/${activation}`, {})).status).toBe(200);
      const reused = await post(`/api/users/user/activation/${activation}`, {});
      expect(reused.status).toBe(400);
      expect(reused.body.message).toMatch(/already been used/);

      const session = (await post('/api/users/signin', { email, password: PASSWORD })).body.token as string;
      await post('/api/users/forgotpassword', { email });
      const first = await token(email, '/resetpassword/');
      await post('/api/users/forgotpassword', { email });
      const second = await token(email, '/resetpassword/', 2);
      const newPassword = `${PASSWORD} two`;
      const reset = (link: string) => post(`/api/users/resetpassword/${link}`, { email, password: newPassword, password2: newPassword });
      expect((await reset(second!)).status).toBe(200);
      expect((await reset(second!)).body.message).toMatch(/already been used/);
      expect((await reset(first!)).status).toBe(400);
      expect((await call(t.app, { method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${session}` } })).status).toBe(401);

      await post('/api/users/forgotpassword', { email });
      const late = await token(email, '/resetpassword/', 3);
      await t.database.query(`update tokens set expires_at = now() - interval '1 second' where purpose = 'reset' and used_at is null`);
      const expired = await reset(late!);
      expect(expired.status).toBe(400);
      expect(expired.body.message).toMatch(/expired/);
    });

    it('sends at most 5 account e-mails an hour to one address, however many addresses ask', async () => {
      const user = await createUser(t.app, 'contributor', PASSWORD);
      for (let i = 0; i < 12; i++) expect((await post('/api/users/forgotpassword', { email: user.email })).status).toBe(200);
      await t.app.settleAccountWork();
      const sent = outboxMessages(t.dataDir, user.email).length;
      console.log(`abuse: 12 forgot-password requests for one address from 12 addresses: ${sent} e-mails sent`);
      expect(sent).toBe(5);
    });
  });

  describe('campaign letters', () => {
    type Rep = { id: string; district: string; available: boolean };
    let reps: { province: string; district: string; id: string }[];
    let cursor = 0;
    beforeAll(async () => {
      const directory: { code: string; provinces: { name: string; representatives: Rep[] }[] }[] = (await call(t.app, { method: 'GET', url: `${API_BASE}/campaign/directory` })).body;
      reps = directory
        .find((c) => c.code === 'CA')!
        .provinces.flatMap((p) => p.representatives.filter((r) => r.available).map((r) => ({ province: p.name, district: r.district, id: r.id })));
      expect(reps.length).toBeGreaterThan(60);
    });
    const letter = (rep: { province: string; district: string }, over: Record<string, unknown> = {}) => ({
      email: uniqueEmail('sender'),
      firstName: 'Samplefirst',
      lastName: 'Testsender',
      country: 'CA',
      province: rep.province,
      district: rep.district,
      city: 'Testville',
      streetName: '1 Sample Street',
      zipcode: 'T3S 7T3',
      message: `Test letter ${Math.random().toString(36).slice(2)}: please raise the documented killings and displacement (test data).`,
      ...over,
    });
    const submit = (body: unknown, ip = uniqueIp()) => post(`${API_BASE}/reports`, body, ip);

    it(`limits one sender e-mail and one address to ${HOURLY_LIMIT} letters an hour, also sent all at once`, async () => {
      const email = uniqueEmail('burst');
      const byEmail = await Promise.all(Array.from({ length: 10 }, () => submit(letter(reps[cursor++]!, { email }))));
      const ip = uniqueIp();
      const byIp = await Promise.all(Array.from({ length: 10 }, () => submit(letter(reps[cursor++]!), ip)));
      const count = (rs: { status: number }[], s: number) => rs.filter((r) => r.status === s).length;
      console.log(
        `abuse: 10 letters at once from one sender: ${count(byEmail, 201)} accepted, ${count(byEmail, 429)} refused; from one address: ${count(byIp, 201)} accepted, ${count(byIp, 429)} refused`,
      );
      expect(count(byEmail, 201)).toBe(HOURLY_LIMIT);
      expect(count(byEmail, 429)).toBe(10 - HOURLY_LIMIT);
      expect(count(byIp, 201)).toBe(HOURLY_LIMIT);
      expect(count(byIp, 429)).toBe(10 - HOURLY_LIMIT);
    });

    it(`limits one representative to ${REPRESENTATIVE_DAILY_LIMIT} letters a day from everyone together`, async () => {
      const rep = reps[cursor++]!;
      for (let i = 0; i < REPRESENTATIVE_DAILY_LIMIT; i++) expect((await submit(letter(rep))).status).toBe(201);
      const over = await submit(letter(rep));
      expect(over.status).toBe(429);
      expect(over.body.message).toMatch(/many letters today/);
      expect((await submit(letter(reps[cursor++]!))).status).toBe(201);
    });
  });
});
