import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { Source } from '../packages/shared/src/index';
import en from '../apps/web/src/locales/en.json' with { type: 'json' };

/** Helpers of the editors' and accounts' browser tests: accounts through the API and the outbox, test files. */

export const SUPER = { email: 'e2e-super@example.test', password: 'e2e super password (test only)' };
export const TEST_PASSWORD = 'sample editor password (test only)';

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');

/** Quoted-printable soft line breaks and escapes, as the outbox .eml files are written. */
export function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The path of the newest link of `kind` e-mailed to `email` (waits for the mail to be written). */
export async function linkFromOutbox(email: string, kind: 'activation' | 'resetpassword'): Promise<string> {
  const pattern = kind === 'activation' ? /\/user\/activation\/[A-Za-z0-9_.~%-]+/ : /\/resetpassword\/[A-Za-z0-9_.~%-]+/;
  let found: string | null = null;
  await expect
    .poll(
      () => {
        if (!existsSync(outboxDir())) return null;
        const files = readdirSync(outboxDir())
          .filter((f) => f.endsWith('.eml'))
          .map((f) => path.join(outboxDir(), f))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
        for (const file of files) {
          const text = decodeQuotedPrintable(readFileSync(file, 'utf8'));
          if (!text.toLowerCase().includes(email.toLowerCase())) continue;
          const match = pattern.exec(text);
          if (match) return (found = match[0]);
        }
        return null;
      },
      { message: `${kind} mail for ${email}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return found!;
}

export const uniqueEmail = (label: string) => `sample-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

export async function apiSignIn(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post('/api/users/signin', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** The sample super approves the pending account of `email` (sign-ups wait for an administrator). */
export async function approveByEmail(request: APIRequestContext, email: string): Promise<string> {
  const headers = { authorization: `Bearer ${await apiSignIn(request, SUPER.email, SUPER.password)}` };
  const queue = (await (await request.get('/api/users/pending?limit=100', { headers })).json()) as { id: string; email: string }[];
  const account = queue.find((u) => u.email === email.toLowerCase());
  expect(account, `${email} in the accounts queue`).toBeDefined();
  const approved = await request.post(`/api/users/${account!.id}/approve`, { headers });
  expect(approved.status(), await approved.text()).toBe(200);
  return account!.id;
}

/** A new activated contributor, made through the API and the e-mailed activation link, approved by the super. */
export async function createContributor(request: APIRequestContext, label: string) {
  const email = uniqueEmail(label);
  const res = await request.post('/api/users/signup', {
    data: { firstName: 'Sample', lastName: `Editor ${label}`, email, password: TEST_PASSWORD, password2: TEST_PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(201);
  const link = await linkFromOutbox(email, 'activation');
  const activated = await request.post(`/api/users${link}`);
  expect(activated.status(), await activated.text()).toBe(200);
  await approveByEmail(request, email);
  const token = await apiSignIn(request, email, TEST_PASSWORD);
  return { email, token, id: claims(token).id };
}

export async function createAdmin(request: APIRequestContext, label: string) {
  const user = await createContributor(request, label);
  const superToken = await apiSignIn(request, SUPER.email, SUPER.password);
  const res = await request.put(`/api/users/${user.id}/role`, { data: { role: 'admin' }, headers: { authorization: `Bearer ${superToken}` } });
  expect(res.status(), await res.text()).toBe(200);
  // A role change raises the token version: sign in again for a token carrying the new role.
  return { ...user, token: await apiSignIn(request, user.email, TEST_PASSWORD) };
}

export function claims(token: string): { id: string; role: string } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { id: string; role: string };
}

/** Opens the site signed in with `token` (the web app keeps it under localStorage "token"). */
export async function useToken(page: Page, token: string) {
  await page.addInitScript((t) => window.localStorage.setItem('token', t), token);
}

const fixtureDir = path.join(os.tmpdir(), 'editor-e2e-fixtures');

/** Small distinct PNGs written with sharp (different colours, so their hashes differ). */
export async function samplePngs(count: number): Promise<string[]> {
  mkdirSync(fixtureDir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(fixtureDir, `sample-${i}.png`);
    if (!existsSync(file)) {
      const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: (i * 70) % 256, g: 90, b: 200 - i * 30 } } })
        .png()
        .toBuffer();
      writeFileSync(file, png);
    }
    files.push(file);
  }
  return files;
}

/** A one-second MP4 made with Debian's ffmpeg (test-time fixture). */
export function sampleMp4(): string {
  mkdirSync(fixtureDir, { recursive: true });
  const file = path.join(fixtureDir, 'sample.mp4');
  if (!existsSync(file)) {
    execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', file]);
  }
  return file;
}

/** Creates a record through the API (for tests whose subject is another screen). */
export async function apiCreate(request: APIRequestContext, token: string, slug: string, fields: Record<string, string>) {
  const res = await request.post(`/api/v1.0.0/${slug}`, { multipart: fields, headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string; title: string; approved: boolean; public: boolean };
}

/**
 * Adds a source through the record form's sources editor, as an editor does: "Add a source", then the new fieldset's
 * inputs by their labels (the focus is on its first). Returns the fieldset.
 */
export async function addSource(page: Page, source: Source) {
  const strings = en.sourceEditor;
  const count = await page.getByRole('group', { name: /^Source \d+$/ }).count();
  await page.getByRole('button', { name: strings.add }).click();
  const group = page.getByRole('group', { name: `Source ${count + 1}`, exact: true });
  await expect(group.getByLabel(strings.kind)).toBeFocused();
  await group.getByLabel(strings.kind).selectOption(source.kind);
  for (const field of ['title', 'publisher', 'date', 'url', 'language', 'note'] as const) {
    if (source[field]) await group.getByLabel(strings[field], { exact: true }).fill(source[field]);
  }
  if (source.withheld) await group.getByLabel(strings.withheld).check();
  return group;
}
