import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { startMailServer } from './campaign-mail';
import { assertTransition, canTransition, IllegalTransitionError } from '../src/modules/campaign/states';
import { SEND_ATTEMPTS } from '../src/modules/campaign/service';

/**
 * The campaign flow end to end against a real SMTP server: submit, confirmation mail, confirm, send job, delivery with
 * Reply-To, public report without personal data; plus expiry, limits, scrubbing and the state machine.
 * All people and addresses here are test data.
 */

type Rep = { id: string; name: string; party: string | null; district: string; email: string | null; available: boolean; note: string | null };
type Country = { code: string; name: string; defaultMessage: string; provinces: { name: string; representatives: Rep[] }[] };

let t: TestApp;
let mail: Awaited<ReturnType<typeof startMailServer>>;
let directory: Country[];
let ipCounter = 0;
const PUBLIC_URL = 'https://campaign-site.test';

/** Each call gets its own client address, so per-IP limits only apply where a test wants them. */
const nextIp = () => `198.51.100.${++ipCounter}`;

function availableReps(code: string) {
  const country = directory.find((c) => c.code === code)!;
  return country.provinces.flatMap((p) => p.representatives.filter((r) => r.available).map((r) => ({ ...r, province: p.name })));
}
let repCursor = 0;
/** A different available representative for each letter, so no limit or duplicate check is hit by accident. */
const nextRep = (code = 'CA') => availableReps(code)[repCursor++]!;

function letterFor(rep: { province: string; district: string }, country: string, over: Record<string, unknown> = {}) {
  return {
    email: `sender-${Math.random().toString(36).slice(2, 8)}@example.test`,
    firstName: 'Samplefirst',
    lastName: 'Testsender',
    country,
    province: rep.province,
    district: rep.district,
    city: 'Testville',
    streetName: '1 Sample Street',
    zipcode: 'T3S 7T3',
    message: `Test letter ${Math.random().toString(36).slice(2)}: please raise the documented killings and displacement.`,
    ...over,
  };
}

async function submit(body: Record<string, unknown>, ip = nextIp()) {
  return call(t.app, { method: 'POST', url: `${API_BASE}/reports`, payload: body, remoteAddress: ip });
}

function tokenFrom(text: string): string {
  const match = text.match(new RegExp(`${PUBLIC_URL}/campaign/confirm/([\\w-]+)`));
  expect(match, 'confirmation link in the mail').not.toBeNull();
  return match![1]!;
}

async function rows(id: string) {
  const [row] = await t.database.query<Record<string, any>>('select * from campaign_messages where id = $1', [id]);
  return row!;
}

/** Submits, confirms by the mailed link and runs the send job; returns the message id and what was used. */
async function sendLetter(code = 'CA') {
  const rep = nextRep(code);
  const body = letterFor(rep, code);
  const res = await submit(body);
  expect(res.status).toBe(201);
  const token = tokenFrom(mail.to(body.email).at(-1)!.text);
  expect((await call(t.app, { method: 'POST', url: `${API_BASE}/campaign/confirm/${token}` })).status).toBe(200);
  await t.app.jobs.drain();
  return { id: res.body._id as string, rep, body, token };
}

describe('campaign', () => {
  beforeAll(async () => {
    mail = await startMailServer();
    t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL, SITE_NAME: 'Test Evidence Site' });
    directory = (await call(t.app, { method: 'GET', url: `${API_BASE}/campaign/directory` })).body;
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  it('serves the directory with default letters, availability notes and an ETag', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/campaign/directory` });
    expect(res.status).toBe(200);
    expect(res.body.map((c: Country) => c.code)).toEqual(['CA', 'AU']);
    const count = (c: Country) => c.provinces.reduce((n, p) => n + p.representatives.length, 0);
    expect(count(res.body[0])).toBe(343);
    expect(count(res.body[1])).toBe(150);
    for (const country of res.body as Country[]) {
      expect(country.defaultMessage).toContain(PUBLIC_URL);
      expect(country.defaultMessage).toMatch(/Amhara/);
      expect(country.defaultMessage).not.toContain('{siteUrl}');
    }
    const all = (res.body as Country[]).flatMap((c) => c.provinces.flatMap((p) => p.representatives));
    const withoutEmail = all.filter((r) => r.email === null);
    expect(withoutEmail.length).toBe(5 + 8);
    for (const r of withoutEmail) {
      expect(r.available).toBe(false);
      expect(r.note).toMatch(/no public e-mail/i);
    }
    expect(all.filter((r) => r.available).length).toBe(338 + 142);

    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await t.app.inject({ method: 'GET', url: `${API_BASE}/campaign/directory`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
  });

  it('delivers a letter only after the sender confirms, with Reply-To the sender, and lists it without personal data', async () => {
    const rep = nextRep('CA');
    const body = letterFor(rep, 'Canada', { authorityEmail: 'attacker@evil.test' });
    const res = await submit(body);
    expect(res.status).toBe(201);
    expect(res.body.state).toBe('awaiting_confirmation');
    expect(JSON.stringify(res.body)).not.toContain(body.email);

    // The sender gets the confirmation with a copy of the letter; nothing went to the representative yet.
    const [confirmation] = mail.to(body.email);
    expect(confirmation).toBeDefined();
    expect(confirmation!.subject).toContain(rep.name);
    expect(confirmation!.text).toContain(body.message);
    expect(confirmation!.text).toContain('1 Sample Street');
    expect(mail.to(rep.email!)).toHaveLength(0);
    await t.app.jobs.drain();
    expect(mail.to(rep.email!)).toHaveLength(0);

    // Reading the link (a mail scanner) changes nothing; the page's POST confirms.
    const token = tokenFrom(confirmation!.text);
    const peek = await call(t.app, { method: 'GET', url: `${API_BASE}/campaign/confirm/${token}` });
    expect(peek.body.state).toBe('awaiting_confirmation');
    const confirmed = await call(t.app, { method: 'POST', url: `${API_BASE}/campaign/confirm/${token}` });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ state: 'confirmed', representative: { name: rep.name, district: rep.district } });

    expect(await t.app.jobs.drain()).toBe(1);
    const delivered = mail.to(rep.email!);
    expect(delivered).toHaveLength(1);
    expect(mail.to('attacker@evil.test')).toHaveLength(0);
    const letter = delivered[0]!;
    expect(letter.headers['reply-to']).toContain(body.email);
    expect(letter.headers.from).not.toContain(body.email);
    expect(letter.text).toContain(`Dear ${rep.name},`);
    expect(letter.text).toContain(body.message);
    expect(letter.text).toContain('Samplefirst Testsender');
    expect(letter.text).toContain('1 Sample Street');
    expect(letter.text).toContain('Testville T3S 7T3');
    expect((await rows(res.body._id)).state).toBe('sent');

    // A second confirmation is harmless and sends nothing more.
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/campaign/confirm/${token}` })).body.state).toBe('sent');
    await t.app.jobs.drain();
    expect(mail.to(rep.email!)).toHaveLength(1);

    const reports = await call(t.app, { method: 'GET', url: `${API_BASE}/reports` });
    expect(reports.status).toBe(200);
    expect(Number(reports.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    const report = reports.body.find((r: { _id: string }) => r._id === res.body._id);
    expect(report).toMatchObject({ title: `Letter to ${rep.name}, ${rep.district}`, message: body.message });
    expect(Object.keys(report).sort()).toEqual(['_id', 'createdAt', 'message', 'title']);
    for (const secret of [body.email, 'Samplefirst', 'Testsender', '1 Sample Street', 'Testville', 'T3S 7T3']) {
      expect(reports.raw.body).not.toContain(secret);
    }

    // The audit trail records every step under campaign:<id> and holds no personal data.
    const audit = await t.database.query<{ action: string; changes: unknown }>('select action, changes from audit_log where subject = $1 order by seq', [
      `campaign:${res.body._id}`,
    ]);
    expect(audit.map((a) => a.action)).toEqual(['campaign.submitted', 'campaign.confirmed', 'campaign.sent']);
    expect(JSON.stringify(audit)).not.toMatch(/example\.test|Samplefirst|Sample Street/);
    const stored = await rows(res.body._id);
    expect(stored.ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.authority_email).toBe(rep.email);
  });

  it('never delivers an unconfirmed letter; it expires after 7 days and its personal data goes', async () => {
    const rep = nextRep('AU');
    const body = letterFor(rep, 'AU');
    const res = await submit(body);
    expect(res.status).toBe(201);
    const token = tokenFrom(mail.to(body.email)[0]!.text);

    await t.app.jobs.drain();
    expect(await t.app.campaign.expireUnconfirmed()).toBe(0);
    await t.database.query(
      "update campaign_messages set created_at = now() - interval '8 days', expires_at = now() - interval '1 day' where id = $1",
      [res.body._id],
    );
    const { expired } = await t.app.campaign.maintain();
    expect(expired).toBe(1);
    const row = await rows(res.body._id);
    expect(row.state).toBe('expired');
    expect([row.email, row.first_name, row.last_name, row.street_name, row.city, row.zipcode, row.ip_hash]).toEqual([null, null, null, null, null, null, null]);
    expect(row.scrubbed_at).not.toBeNull();

    const late = await call(t.app, { method: 'POST', url: `${API_BASE}/campaign/confirm/${token}` });
    expect(late.status).toBe(410);
    await t.app.jobs.drain();
    expect(mail.to(rep.email!)).toHaveLength(0);
    const reports = await call(t.app, { method: 'GET', url: `${API_BASE}/reports?limit=200` });
    expect(reports.body.map((r: { _id: string }) => r._id)).not.toContain(res.body._id);
  });

  it('limits letters to 3 an hour per sender e-mail and per IP address, with clear 429 answers', async () => {
    const email = 'frequent-sender@example.test';
    for (let i = 0; i < 3; i++) expect((await submit(letterFor(nextRep(), 'CA', { email }))).status).toBe(201);
    const fourth = await submit(letterFor(nextRep(), 'CA', { email }));
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toMatch(/at most 3 letters an hour/);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);

    const ip = '203.0.113.77';
    for (let i = 0; i < 3; i++) expect((await submit(letterFor(nextRep(), 'CA'), ip)).status).toBe(201);
    expect((await submit(letterFor(nextRep(), 'CA'), ip)).status).toBe(429);

    // An hour later the sender may write again.
    await t.database.query("update campaign_messages set created_at = created_at - interval '61 minutes' where email = $1", [email]);
    expect((await submit(letterFor(nextRep(), 'CA', { email }))).status).toBe(201);
  });

  it('refuses the same letter to the same representative twice from one sender', async () => {
    const rep = nextRep();
    const body = letterFor(rep, 'CA');
    expect((await submit(body)).status).toBe(201);
    const again = await submit({ ...body, message: `  ${body.message.replace(/ /g, '  ')}\n` });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already written this letter/);
    // Another letter to them is fine.
    expect((await submit({ ...body, message: `${body.message} A second, different letter.` })).status).toBe(201);
  });

  it('validates the form with field errors and never takes the recipient from the client', async () => {
    const empty = await submit({});
    expect(empty.status).toBe(400);
    for (const field of ['email', 'firstName', 'lastName', 'country', 'province', 'district', 'city', 'streetName', 'zipcode', 'message']) {
      expect(empty.body[field], field).toEqual(expect.any(String));
    }
    const rep = nextRep();
    expect((await submit(letterFor(rep, 'CA', { email: 'not-an-address' }))).body.email).toMatch(/valid e-mail/);
    expect((await submit(letterFor(rep, 'CA', { firstName: 'Sample\nBcc: other@example.test' }))).body.firstName).toMatch(/one line/);
    const long = await submit(letterFor(rep, 'CA', { message: 'x'.repeat(10_001) }));
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/at most 10,000/);
    expect((await submit(letterFor(rep, 'France'))).body.country).toBeDefined();
    expect((await submit(letterFor({ ...rep, province: 'Atlantis' }, 'CA'))).body.province).toBeDefined();
    expect((await submit(letterFor({ ...rep, district: 'Nowhere' }, 'CA'))).body.district).toBeDefined();

    const noEmail = directory[0]!.provinces.flatMap((p) => p.representatives.map((r) => ({ ...r, province: p.name }))).find((r) => !r.available)!;
    const refused = await submit(letterFor(noEmail, 'CA', { authorityEmail: 'someone@example.test' }));
    expect(refused.status).toBe(400);
    expect(refused.body.district).toMatch(/no public e-mail/i);

    // A plain HTML form post works too.
    const form = new URLSearchParams(letterFor(nextRep(), 'CA') as Record<string, string>).toString();
    const posted = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/reports`,
      payload: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: nextIp(),
    });
    expect(posted.status).toBe(201);
  });

  it('scrubs the sender from sent letters after CAMPAIGN_SCRUB_DAYS, keeping the letter and the report', async () => {
    const { id, body } = await sendLetter('AU');
    expect(await t.app.campaign.scrubPersonalData()).toBe(0);
    expect((await rows(id)).email).toBe(body.email);
    await t.database.query("update campaign_messages set sent_at = now() - interval '29 days' where id = $1", [id]);
    const { scrubbed } = await t.app.campaign.maintain();
    expect(scrubbed).toBe(1);
    const row = await rows(id);
    expect([row.email, row.first_name, row.last_name, row.street_name, row.city, row.zipcode, row.ip_hash, row.confirm_token_hash]).toEqual(
      [null, null, null, null, null, null, null, null],
    );
    expect(row.message).toBe(body.message);
    expect(row.representative_id).not.toBeNull();
    expect(row.scrubbed_at).not.toBeNull();
    const reports = await call(t.app, { method: 'GET', url: `${API_BASE}/reports?limit=200` });
    expect(reports.body.find((r: { _id: string }) => r._id === id)?.message).toBe(body.message);
  });

  it('refuses illegal state transitions', async () => {
    expect(canTransition('awaiting_confirmation', 'confirmed')).toBe(true);
    expect(canTransition('confirmed', 'sent')).toBe(true);
    for (const [from, to] of [
      ['awaiting_confirmation', 'sent'],
      ['sent', 'confirmed'],
      ['sent', 'failed'],
      ['expired', 'confirmed'],
      ['failed', 'sent'],
      ['confirmed', 'expired'],
    ] as const) {
      expect(() => assertTransition(from, to), `${from} -> ${to}`).toThrow(IllegalTransitionError);
    }
    // Against the database: a sent letter cannot be confirmed (and so sent) again.
    const { id } = await sendLetter();
    await expect(t.app.db.transaction((tx) => t.app.campaign.transition(tx, id, 'sent', 'confirmed'))).rejects.toThrow(IllegalTransitionError);
    // A stale "from" state is refused too: the row is no longer awaiting confirmation.
    await expect(t.app.db.transaction((tx) => t.app.campaign.transition(tx, id, 'awaiting_confirmation', 'confirmed'))).rejects.toThrow(
      IllegalTransitionError,
    );
    expect((await rows(id)).state).toBe('sent');
  });

  it('marks a letter failed with the reason when delivery keeps failing', async () => {
    const admin = await createUser(t.app, 'admin');
    const rep = nextRep();
    const badAddress = 'bounces@example.test';
    mail.rejected.add(badAddress);
    const corrected = await call(t.app, { method: 'PUT', url: `${API_BASE}/representatives/${rep.id}`, headers: admin.auth, payload: { email: badAddress } });
    expect(corrected.status).toBe(200);
    const body = letterFor(rep, 'CA');
    const res = await submit(body);
    const token = tokenFrom(mail.to(body.email)[0]!.text);
    await call(t.app, { method: 'POST', url: `${API_BASE}/campaign/confirm/${token}` });
    await t.app.jobs.drain(); // first attempt fails; the queue retries later
    expect((await rows(res.body._id)).state).toBe('confirmed');
    await t.app.campaign.deliver(res.body._id, SEND_ATTEMPTS); // the last attempt
    const row = await rows(res.body._id);
    expect(row.state).toBe('failed');
    expect(row.failed_reason).toMatch(/Delivery failed/);
    expect(mail.to(badAddress)).toHaveLength(0);
  });

  it('lets admins correct a representative and the default letters, audited', async () => {
    const admin = await createUser(t.app, 'admin');
    const contributor = await createUser(t.app, 'contributor');
    const rep = nextRep('AU');
    const url = `${API_BASE}/representatives/${rep.id}`;
    expect((await call(t.app, { method: 'PUT', url, payload: { unreachable: true } })).status).toBe(401);
    expect((await call(t.app, { method: 'PUT', url, headers: contributor.auth, payload: { unreachable: true } })).status).toBe(403);
    expect((await call(t.app, { method: 'PUT', url, headers: admin.auth, payload: { email: 'nope' } })).status).toBe(400);
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/representatives/not-a-uuid`, headers: admin.auth, payload: { unreachable: true } })).status).toBe(400);

    const before = await call(t.app, { method: 'GET', url: `${API_BASE}/campaign/directory` });
    const res = await call(t.app, { method: 'PUT', url, headers: admin.auth, payload: { unreachable: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: rep.id, available: false, email: rep.email });
    const after = await call(t.app, { method: 'GET', url: `${API_BASE}/campaign/directory` });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const shown = (after.body as Country[]).flatMap((c) => c.provinces.flatMap((p) => p.representatives)).find((r) => r.id === rep.id)!;
    expect(shown.available).toBe(false);
    expect(shown.note).toMatch(/cannot be delivered/);
    const refused = await submit(letterFor(rep, 'AU'));
    expect(refused.status).toBe(400);
    expect(refused.body.district).toMatch(/cannot be delivered/);

    const [entry] = await t.database.query<{ actor_id: string; changes: any }>(
      "select actor_id, changes from audit_log where subject = $1 and action = 'campaign.representative_corrected'",
      [`representative:${rep.id}`],
    );
    expect(entry!.actor_id).toBe(admin.id);
    expect(entry!.changes.unreachable).toEqual({ before: false, after: true });

    const letter = 'A new default letter for the test, asking for attention to the documented killings.';
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/campaign/defaults/AU`, headers: contributor.auth, payload: { message: letter } })).status).toBe(403);
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/campaign/defaults/FR`, headers: admin.auth, payload: { message: letter } })).status).toBe(404);
    const updated = await call(t.app, { method: 'PUT', url: `${API_BASE}/campaign/defaults/au`, headers: admin.auth, payload: { message: letter } });
    expect(updated.status).toBe(200);
    const dir = (await call(t.app, { method: 'GET', url: `${API_BASE}/campaign/directory` })).body as Country[];
    expect(dir.find((c) => c.code === 'AU')!.defaultMessage).toBe(letter);
    expect(dir.find((c) => c.code === 'CA')!.defaultMessage).not.toBe(letter);
  });

  it('pages the reports newest first with X-Total-Count', async () => {
    await sendLetter();
    const all = await call(t.app, { method: 'GET', url: `${API_BASE}/reports` });
    const total = Number(all.headers['x-total-count']);
    expect(total).toBe(all.body.length);
    expect(total).toBeGreaterThanOrEqual(3);
    const dates = all.body.map((r: { createdAt: string }) => r.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const page = await call(t.app, { method: 'GET', url: `${API_BASE}/reports?limit=1&offset=1` });
    expect(page.body).toHaveLength(1);
    expect(page.body[0]._id).toBe(all.body[1]._id);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/reports?limit=abc` })).status).toBe(400);
  });
});
