import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cfg-secrets-'));
const randomSecret = () => randomBytes(36).toString('base64');
const ed25519Pem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A production configuration that loads, for each test to spoil one variable of. */
const production = (): Record<string, string> => ({
  NODE_ENV: 'production',
  DATA_DIR: tmp(),
  PUBLIC_URL: 'https://evidence.example.org',
  SMTP_URL: 'smtp://mail.example.org:587',
  JWT_SECRET: randomSecret(),
  AUDIT_SIGNING_KEY: ed25519Pem(),
});

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return '';
}

/** .env.example as compose reads it: KEY=value lines, a double-quoted value may span lines. */
function envExample(): Record<string, string> {
  const text = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  const out: Record<string, string> = {};
  const pattern = /^([A-Z0-9_]+)=("(?:[^"])*"|.*)$/gm;
  for (const [, name, raw] of text.matchAll(pattern)) out[name!] = raw!.startsWith('"') ? raw!.slice(1, -1) : raw!;
  return out;
}

describe('secrets in production', () => {
  it('starts with random secrets and a real key', () => {
    expect(problemsOf(production())).toBe('');
  });

  it(".env.example's placeholders are refused, each naming its variable (as compose passes them to the site)", () => {
    const example = envExample();
    expect(example.JWT_SECRET, '.env.example has its placeholders').toBeTruthy();
    const message = problemsOf({
      ...production(),
      JWT_SECRET: example.JWT_SECRET!,
      AUDIT_SIGNING_KEY: example.AUDIT_SIGNING_KEY!,
      DATABASE_URL: `postgres://evidence:${example.POSTGRES_PASSWORD}@postgres:5432/evidence`,
      S3_SECRET_ACCESS_KEY: example.MINIO_ROOT_PASSWORD!,
    });
    for (const variable of ['JWT_SECRET', 'AUDIT_SIGNING_KEY', 'DATABASE_URL', 'S3_SECRET_ACCESS_KEY']) expect(message).toContain(`  - ${variable}: `);
    expect(message).not.toContain(example.POSTGRES_PASSWORD);
    expect(message).not.toContain(example.JWT_SECRET);
  });

  it.each([
    ['JWT_SECRET', 'a'.repeat(40)],
    ['JWT_SECRET', 'abcdefghij'.repeat(4)],
    ['JWT_SECRET', 'please-change-me-before-going-live-0123456789'],
    ['METRICS_TOKEN', 'your-token-here-please'],
    ['METRICS_TOKEN', '0000000000000000'],
  ])('refuses the weak %s %j', (variable, value) => {
    expect(problemsOf({ ...production(), [variable]: value })).toContain(`${variable}: `);
  });

  it('leaves weak secrets to development and tests, where nothing is at stake', () => {
    expect(problemsOf({ DATA_DIR: tmp(), NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40) })).toBe('');
    expect(problemsOf({ DATA_DIR: tmp(), JWT_SECRET: envExample().JWT_SECRET! })).toBe('');
  });
});

describe('the audit signing key', () => {
  it.each([
    ['damaged', '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n-----END PRIVATE KEY-----'],
    ['an RSA key', generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()],
  ])('%s is refused in every environment, naming AUDIT_SIGNING_KEY (no OpenSSL error)', (_what, pem) => {
    for (const NODE_ENV of ['development', 'production']) {
      const message = problemsOf({ ...production(), NODE_ENV, AUDIT_SIGNING_KEY: pem });
      expect(message).toContain('AUDIT_SIGNING_KEY: ');
      expect(message).not.toMatch(/DECODER|error:[0-9A-F]{8}/);
    }
  });
});

describe('messages never print a password', () => {
  it.each([
    ['REDIS_URL', 'redis//:hunter2-password@redis:6379', 'hunter2-password'],
    ['REDIS_URL', 'http://user:hunter2-password@redis:6379', 'hunter2-password'],
    ['DATABASE_URL', 'mysql://evidence:hunter2-password@db/evidence', 'hunter2-password'],
    ['SMTP_URL', 'smtps//mailer:hunter2-password@mail.example.org', 'hunter2-password'],
    ['DATABASE_URL', 'postgres//hunter2-token@db/evidence', 'hunter2-token'],
    ['JWT_SECRET', 'hunter2-too-short', 'hunter2'],
    ['METRICS_TOKEN', 'hunter2', 'hunter2'],
  ])('a malformed %s names the variable and hides its secret', (variable, value, secret) => {
    const message = problemsOf({ DATA_DIR: tmp(), [variable]: value });
    expect(message).toContain(`${variable}: `);
    expect(message).not.toContain(secret);
  });

  it('still shows the rest of a malformed URL, which is what the operator must fix', () => {
    expect(problemsOf({ DATA_DIR: tmp(), REDIS_URL: 'redis//:hunter2-password@redis:6379' })).toContain('redis//:***@redis:6379');
  });
});
