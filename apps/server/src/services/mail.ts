import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
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
  log: (msg: string) => void;
}

/**
 * One mail service, two transports: SMTP when configured, otherwise an outbox folder of .eml files whose links are
 * printed on the console, so a local user can activate an account without a mail server.
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
      throw err;
    }
  }

  private async deliver(message: MailMessage): Promise<SentMail> {
    const transport = await this.openTransport();
    const info = await transport.sendMail({ from: this.options.from, ...message });
    if (this.mode === 'smtp') return { messageId: info.messageId };
    mkdirSync(this.options.outboxDir, { recursive: true });
    const file = path.join(
      this.options.outboxDir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`,
    );
    writeFileSync(file, (info as unknown as { message: Buffer }).message);
    const links = message.text.match(/https?:\/\/\S+/g) ?? [];
    this.options.log(`Mail to ${message.to} "${message.subject}" written to ${file}${links.length ? `\n  ${links.join('\n  ')}` : ''}`);
    return { messageId: info.messageId, file };
  }

  close(): void {
    void this.transport?.then((t) => t.close()).catch(() => {});
  }
}
