import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mailErrorOf, MailService } from '../src/services/mail';

const message = {
  to: 'sample.reader@example.test',
  subject: 'Message from Samplefirst Testsender',
  text: 'Reset your password: https://site.example.test/resetpassword/SampleTokenSampleToken1234\n',
};

function outboxService(showLinks: boolean) {
  const lines: string[] = [];
  const outboxDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'outbox-log-')), 'outbox');
  const mail = new MailService({ from: 'Sample site <site@example.test>', outboxDir, showLinks, log: (line) => lines.push(line) });
  return { mail, lines, outboxDir };
}

describe('the outbox line in the log', () => {
  it('in production names the file only: no recipient, no subject, no link', async () => {
    const { mail, lines, outboxDir } = outboxService(false);
    await mail.send(message);
    expect(readdirSync(outboxDir)).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Mail written to .*\.eml$/);
    for (const secret of ['example.test/resetpassword', 'SampleToken', 'sample.reader', 'Testsender']) expect(lines[0]).not.toContain(secret);
    mail.close();
  });

  it('writes each mail readable by the site only (0600 in a 0700 folder): it names senders and holds reset links', async () => {
    const { mail, outboxDir } = outboxService(false);
    await mail.send(message);
    const [file] = readdirSync(outboxDir);
    expect((statSync(outboxDir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(path.join(outboxDir, file!)).mode & 0o777).toString(8)).toBe('600');
    mail.close();
  });

  it('in development keeps the console link (and the subject) but never the recipient', async () => {
    const { mail, lines } = outboxService(true);
    await mail.send(message);
    expect(lines[0]).toContain('https://site.example.test/resetpassword/SampleTokenSampleToken1234');
    expect(lines[0]).toContain('Message from Samplefirst Testsender');
    expect(lines[0]).not.toContain('sample.reader@example.test');
    mail.close();
  });
});

describe('a refused delivery as logged', () => {
  it('keeps the codes and blanks every address nodemailer put in the message', () => {
    const refused = Object.assign(new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <sample.reader@example.test>: no such user"), {
      code: 'EENVELOPE',
      responseCode: 550,
      rejected: ['sample.reader@example.test'],
    });
    const error = mailErrorOf(refused);
    expect(error.message).toBe("EENVELOPE 550: Can't send mail - all recipients were rejected: 550 5.1.1 [address]: no such user");
    expect(error.permanent).toBe(true);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('example.test');
    expect(mailErrorOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' })).permanent).toBe(false);
    expect(mailErrorOf(Object.assign(new Error('451 try later'), { code: 'EENVELOPE', responseCode: 451 })).permanent).toBe(false);
  });
});
