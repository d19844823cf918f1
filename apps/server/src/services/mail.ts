import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { QueuedMessage } from '../db/schema';

export type MailMessage = QueuedMessage;

/**
 * A delivery that failed, told without the addresses nodemailer's own error carries (its message, `rejected`,
 * `envelope`, `response`): this one may be logged and stored. `permanent`: the server refused for good (a 5xx reply),
 * so trying again would be refused again.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

const ADDRESS = /<?[^\s<>@"]+@[^\s<>@"]+>?/g;

/** The MailError of a transport's failure: its code and SMTP reply code, its message with every address blanked. */
export function mailErrorOf(err: unknown): MailError {
  if (err instanceof MailError) return err;
  const { code, responseCode, message } = (err ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  const reply = typeof responseCode === 'number' ? responseCode : undefined;
  const text = String(message ?? err).replace(ADDRESS, '[address]').slice(0, 300);
  return new MailError(`${[code, reply].filter(Boolean).join(' ') || 'mail error'}: ${text}`, reply !== undefined && reply >= 500);
}

interface SentMail {
  messageId: string;
  /** Outbox file of the message (outbox transport only). */
  file?: string;
}

interface MailOptions {
  from: string;
  /** SMTP URL; without it messages go to the outbox folder. */
  smtpUrl?: string;
  outboxDir: string;
  /** Whether the outbox line may show the mail's links (development: the console is how a local user activates). */
  showLinks: boolean;
  log: (msg: string) => void;
}

/**
 * One mail service, two transports: SMTP when configured, otherwise an outbox folder of .eml files whose links are
 * printed on the console outside production, so a local user can activate an account without a mail server. One
 * try each: a failed one throws a MailError; MailQueue (mail-queue.ts) keeps the mail and tries again.
 */
export class MailService {
  private transport: Promise<Transporter> | null = null;
  readonly mode: 'smtp' | 'outbox';
  /** Messages handed to the transport and messages it refused, since start (the metrics of /metrics). */
  sent = 0;
  failed = 0;

  constructor(private readonly options: MailOptions) {
    this.mode = options.smtpUrl ? 'smtp' : 'outbox';
  }

  /** nodemailer is loaded with the first message rather than at start: memory a reading server does not need. */
  private openTransport(): Promise<Transporter> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      this.options.smtpUrl
        ? nodemailer.createTransport(this.options.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return this.transport;
  }

  async send(message: MailMessage): Promise<SentMail> {
    try {
      const sent = await this.deliver(message);
      this.sent++;
      return sent;
    } catch (err) {
      this.failed++;
      throw mailErrorOf(err);
    }
  }

  private async deliver(message: MailMessage): Promise<SentMail> {
    const transport = await this.openTransport();
    const info = await transport.sendMail({ from: this.options.from, ...message });
    if (this.mode === 'smtp') return { messageId: info.messageId };
    // A letter names its sender and a reset link is as good as a password: readable by the site's own user only.
    mkdirSync(this.options.outboxDir, { recursive: true, mode: 0o700 });
    const file = path.join(
      this.options.outboxDir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`,
    );
    writeFileSync(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    // Never the recipient; in production neither a link (a reset link is as good as a password) nor the subject (a
    // letter's names the sender). In development the console is how a local user follows them.
    if (this.options.showLinks) {
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      this.options.log(`Mail "${message.subject}" written to ${file}${links.length ? `\n  ${links.join('\n  ')}` : ''}`);
    } else this.options.log(`Mail written to ${file}`);
    return { messageId: info.messageId, file };
  }

  close(): void {
    void this.transport?.then((t) => t.close()).catch(() => {});
  }
}
