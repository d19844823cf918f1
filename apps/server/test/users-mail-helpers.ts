import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/** Test helpers of the account tests: a real SMTP peer, the outbox folder, and link extraction from raw messages. */

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** Undoes quoted-printable soft line breaks and escapes, enough to read links out of a raw message. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The token of the first `{publicUrl}{route}/{token}` link in a raw message, or null. */
export function linkToken(raw: string, publicUrl: string, route: '/user/activation/' | '/resetpassword/'): string | null {
  const escaped = (publicUrl + route).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = decodeQuotedPrintable(raw).match(new RegExp(`${escaped}([A-Za-z0-9_-]+)`));
  return match?.[1] ?? null;
}

export async function waitFor<T>(probe: () => T | null | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A real SMTP peer keeping what it receives in `received`; `refusal`, when given, answers each recipient: null takes
 * it, an error (with its `responseCode`) refuses it.
 */
export function recordingSmtpServer(received: ReceivedMail[], refusal?: () => (Error & { responseCode: number }) | null): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      const refused = refusal?.() ?? null;
      callback(refused ?? undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
}

/** An SMTP server on 127.0.0.1 and a free port, keeping every message it receives. */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const server = recordingSmtpServer(received);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages to `to` so far. */
    to: (to: string) => received.filter((m) => m.to.includes(to.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Raw .eml files of the outbox folder whose To header names `to`, oldest first. */
export function outboxMessages(dataDir: string, to: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return files
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .filter((raw) => new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(raw));
}

let ipCounter = 0;
/** A distinct client address per call, so per-IP limits of one test do not affect another. */
export function nextIp(): string {
  ipCounter++;
  return `10.${Math.floor(Math.random() * 200) + 20}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

let emailCounter = 0;
export function uniqueEmail(label = 'person'): string {
  emailCounter++;
  return `${label}${emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}
