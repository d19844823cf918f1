import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { writeBackup } from '../src/modules/backup/backup';
import { call, createUser } from './helpers';
import { markedPng, multipart, solvedAltcha } from './testimony-helpers';

/**
 * decisions.md §7: what a witness sends is unreadable at rest. The markers of a testimony's text, its file, a
 * reviewer's question and the witness's answer are looked for in every file of the data folder (the database's
 * files after a checkpoint, media, tmp, logs, outbox) and in a backup archive; the sender's address in the logs.
 */

const MARKERS: [string, string, string, string, string] = ['SAMPLE-TEXT-MARKER-7431', 'SAMPLE-FILE-MARKER-7431', 'SAMPLE-QUESTION-MARKER-7431', 'SAMPLE-ANSWER-MARKER-7431', 'Sample Person Marker'];
const ADDRESS = '10.77.66.55';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

function containing(bytes: Buffer, marker: string): boolean {
  // Plain, and as PostgreSQL or JSON might spell it (UTF-16 is no concern: nothing here writes it).
  return bytes.includes(Buffer.from(marker)) || bytes.includes(Buffer.from(marker.toLowerCase())) || bytes.includes(Buffer.from(marker).toString('base64').slice(0, 16));
}

describe('testimonies at rest', () => {
  let dataDir: string;
  let database: Database;
  let app: FastifyInstance;
  let logFile: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'h56-at-rest-'));
    logFile = path.join(dataDir, 'logs', 'server.log');
    readdirSync(dataDir);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(logFile), { recursive: true });
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'info', JWT_SECRET: 'x'.repeat(40), TRUST_PROXY: 'true' });
    database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    const stream = createWriteStream(logFile);
    app = await buildApp({ config, database, runJobs: false, logger: { level: 'trace', stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    if (!process.env.H56_KEEP) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps no marker of a testimony, its file, a question or an answer anywhere on disk or in a backup', async () => {
    const admin = await createUser(app, 'admin');
    await call(app, { method: 'POST', url: '/api/v1.0.0/testimonies/key', headers: admin.auth, payload: { passphrase: 'sample reviewer passphrase' } });
    const form = multipart(
      { statement: `Sample statement ${MARKERS[0]}`, people: MARKERS[4], contact: 'sample-contact@example.test', altcha: await solvedAltcha(app) },
      [{ name: 'sample-photo.png', body: markedPng(MARKERS[1]) }],
    );
    const sent = await call(app, { method: 'POST', url: '/api/v1.0.0/testimonies', payload: form.payload, headers: { ...form.headers, 'x-forwarded-for': ADDRESS } });
    expect(sent.status).toBe(201);
    await call(app, { method: 'POST', url: '/api/v1.0.0/testimonies/unlock', headers: admin.auth, payload: { passphrase: 'sample reviewer passphrase' } });
    const [item] = (await call(app, { method: 'GET', url: '/api/v1.0.0/testimonies', headers: admin.auth })).body;
    expect((await call(app, { method: 'POST', url: `/api/v1.0.0/testimonies/${item.id}/messages`, headers: admin.auth, payload: { text: MARKERS[2] } })).status).toBe(201);
    const answer = multipart({ receipt: sent.body.receipt, reply: MARKERS[3] });
    expect((await call(app, { method: 'POST', url: '/api/v1.0.0/testimonies/receipt', payload: answer.payload, headers: { ...answer.headers, 'x-forwarded-for': ADDRESS } })).status).toBe(200);

    // Positive control: the markers are there, readable by a reviewer, so their absence below means something.
    const detail = await call(app, { method: 'GET', url: `/api/v1.0.0/testimonies/${item.id}`, headers: admin.auth });
    expect(JSON.stringify(detail.body)).toContain(MARKERS[0]);
    expect(detail.body.messageList.map((m: { text: string }) => m.text)).toEqual([MARKERS[2], MARKERS[3]]);

    await database.db.execute(sql`checkpoint`);
    const archive = path.join(dataDir, 'backups', 'sample.tar.gz');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(archive), { recursive: true });
    await writeBackup(database, app.media.storage, archive);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const files = filesUnder(dataDir);
    expect(files.some((f) => f.includes(`${path.sep}testimony${path.sep}`))).toBe(true);
    expect(files.some((f) => f.includes(`${path.sep}pglite${path.sep}`))).toBe(true);
    expect(statSync(logFile).size).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = file.endsWith('.tar.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file);
      for (const marker of MARKERS) expect(containing(bytes, marker), `${marker} in ${path.relative(dataDir, file)}`).toBe(false);
    }
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('/api/v1.0.0/testimonies');
    expect(log).not.toContain(ADDRESS);
    expect(log).not.toContain('remoteAddress');
  });
});
