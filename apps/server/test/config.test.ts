import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { poolSizeOf } from '../src/bootstrap';
import { ConfigError, loadConfig } from '../src/config';

const serverDir = path.resolve(import.meta.dirname, '..');

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cfg-'));

describe('configuration', () => {
  it('uses the embedded defaults when nothing is set', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.sampleData).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x/y'],
    ['PUBLIC_URL', 'ftp://example.org'],
    ['CONTACT_EMAIL', 'not-an-email'],
    ['JWT_SECRET', 'short'],
    ['STORAGE', 'floppy'],
    ['MAX_IMAGE_MB', '-3'],
    ['RELATED_SITES', 'no url here'],
    ['CAPTURE_ENABLED', 'maybe'],
    ['CAPTURE_TIMEOUT_SECONDS', '0'],
    ['CAPTURE_ALLOW_HOSTS', 'http://intranet.test/'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'ten'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tmp(), [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`${name}:`);
  });

  it('reads the capture settings: on by default, Debian\'s chromium, limits in bytes and ms, hosts lower-cased', () => {
    const defaults = loadConfig({ DATA_DIR: tmp() });
    expect(defaults).toMatchObject({ CAPTURE_ENABLED: true, CAPTURE_BROWSER_PATH: '/usr/bin/chromium', CAPTURE_MAX_MB: 50 * 1024 * 1024, CAPTURE_ALLOW_HOSTS: [] });
    const set = loadConfig({ DATA_DIR: tmp(), CAPTURE_ENABLED: 'false', CAPTURE_ALLOW_HOSTS: 'Intranet.test:8080, 10.0.0.5,[fd00::1]:443' });
    expect(set.CAPTURE_ENABLED).toBe(false);
    expect(set.CAPTURE_ALLOW_HOSTS).toEqual(['intranet.test:8080', '10.0.0.5', '[fd00::1]:443']);
  });

  it('sizes the database pool by the CPUs unless DATABASE_POOL_SIZE says otherwise', () => {
    expect(poolSizeOf(loadConfig({ DATA_DIR: tmp() }))).toBe(2 * os.availableParallelism() + 1);
    expect(poolSizeOf(loadConfig({ DATA_DIR: tmp(), DATABASE_POOL_SIZE: '3' }))).toBe(3);
  });

  it('requires PUBLIC_URL in production and a bucket for S3', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ DATA_DIR: tmp(), STORAGE: 's3' })).toThrow(/S3_BUCKET/);
  });

  it('generates the JWT secret once and keeps it in the data folder', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(path.join(dir, 'jwt-secret'))).toBe(true);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
  });

  it('never turns on sample content in production', () => {
    expect(loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production', PUBLIC_URL: 'https://example.org', MAIL_OUTBOX: 'true' }).sampleData).toBe(false);
  });

  it('refuses a production start without SMTP_URL unless the outbox is chosen on purpose', () => {
    const production = { DATA_DIR: tmp(), NODE_ENV: 'production', PUBLIC_URL: 'https://example.org' };
    expect(() => loadConfig(production)).toThrow(/SMTP_URL: must be set when NODE_ENV=production \(or MAIL_OUTBOX=true/);
    expect(loadConfig({ ...production, MAIL_OUTBOX: 'true' }).mailOutbox).toBe(true);
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://mail.example.org:587' }).mailOutbox).toBe(false);
    expect(() => loadConfig({ ...production, SMTP_URL: 'smtp://mail.example.org:587', MAIL_OUTBOX: 'true' })).toThrow(/MAIL_OUTBOX: set it or SMTP_URL, not both/);
    // Outside production the outbox stays the default.
    expect(loadConfig({ DATA_DIR: tmp() }).mailOutbox).toBe(true);
  });

  it('listens on 127.0.0.1 outside production and on every interface in production, unless HOST says otherwise', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    const production = { DATA_DIR: tmp(), NODE_ENV: 'production', PUBLIC_URL: 'https://example.org', MAIL_OUTBOX: 'true' };
    expect(loadConfig(production).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('refuses to start on an earlier PGlite data folder and names the command that moves it', () => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'pglite'));
    writeFileSync(path.join(dir, 'pglite', 'PG_VERSION'), '18\n');
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
    delete env.DATABASE_URL;
    const site = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, encoding: 'utf8' });
    expect(site.status).toBe(1);
    expect(site.stderr).toContain('npm run admin -- migrate-from-pglite');
    // Nothing was started or created beside the old folder.
    expect(existsSync(path.join(dir, 'postgres'))).toBe(false);
  });
});
