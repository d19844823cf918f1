import { escapeHtml, paths } from '@app/shared';
import type { MailMessage } from '../../services/mail';

/** The account e-mails: plain text and HTML of the same content, naming the site and its address. */

export interface EmailContext {
  siteName: string;
  publicUrl: string;
}

interface Recipient {
  email: string;
  firstName: string;
}

function compose(
  ctx: EmailContext,
  to: Recipient,
  subject: string,
  paragraphs: string[],
  action: { label: string; url: string },
  closing: string,
): MailMessage {
  const greeting = `Hello ${to.firstName},`;
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    `${action.label}:`,
    action.url,
    '',
    closing,
    '',
    `-- ${ctx.siteName}`,
    ctx.publicUrl,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#222">
<p>${escapeHtml(greeting)}</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#555">If the button does not work, copy this address into your browser:<br>${escapeHtml(action.url)}</p>
<p>${escapeHtml(closing)}</p>
<p style="font-size:13px;color:#555">&mdash; ${escapeHtml(ctx.siteName)}<br><a href="${escapeHtml(ctx.publicUrl)}">${escapeHtml(ctx.publicUrl)}</a></p>
</body></html>
`;
  return { to: to.email, subject: `${subject} | ${ctx.siteName}`, text, html };
}

export function activationEmail(ctx: EmailContext, to: Recipient, token: string): MailMessage {
  return compose(
    ctx,
    to,
    'Activate your account',
    [`Thank you for joining ${ctx.siteName}.`, 'Open the link below to activate your account. The link works once and for 7 days.'],
    { label: 'Activate your account', url: `${ctx.publicUrl}${paths.activation(token)}` },
    'If you did not sign up, ignore this e-mail; no account will be activated.',
  );
}

export function passwordResetEmail(ctx: EmailContext, to: Recipient, token: string): MailMessage {
  return compose(
    ctx,
    to,
    'Reset your password',
    [
      `Someone asked to reset the password of your ${ctx.siteName} account.`,
      'Open the link below to choose a new password. The link works once and for 1 hour.',
    ],
    { label: 'Choose a new password', url: `${ctx.publicUrl}${paths.resetPassword(token)}` },
    'If you did not ask for this, ignore this e-mail; your password stays as it is.',
  );
}

/** Sent instead of a new account when someone signs up with an e-mail that already has one. */
export function accountExistsEmail(ctx: EmailContext, to: Recipient): MailMessage {
  return compose(
    ctx,
    to,
    'You already have an account',
    [
      `Someone (perhaps you) tried to create a ${ctx.siteName} account with this e-mail address, which already has one.`,
      'No new account was created. If it was you, sign in, or choose a new password if you have forgotten it.',
    ],
    { label: 'Sign in', url: `${ctx.publicUrl}${paths.signin}` },
    'If it was not you, ignore this e-mail; nothing has changed.',
  );
}

/** An admin's invitation: the link sets a password, and the account is a contributor from then on. */
export function invitationEmail(ctx: EmailContext, to: Recipient, token: string): MailMessage {
  return compose(
    ctx,
    to,
    'You are invited to contribute',
    [
      `An administrator of ${ctx.siteName} invited you to contribute to it.`,
      'Open the link below to choose your password; your account is ready then. The link works once and for 7 days.',
    ],
    { label: 'Choose your password', url: `${ctx.publicUrl}${paths.resetPassword(token)}` },
    'If you did not expect this, ignore this e-mail; nothing happens without the link.',
  );
}

/** The decision on a pending account: approved (sign in again to contribute) or declined (the account is closed). */
export function accountDecisionEmail(ctx: EmailContext, to: Recipient, approved: boolean): MailMessage {
  return approved
    ? compose(
        ctx,
        to,
        'Your account has been approved',
        [`An administrator approved your ${ctx.siteName} account.`, 'Sign in again to add records and read what contributors read.'],
        { label: 'Sign in', url: `${ctx.publicUrl}${paths.signin}` },
        'Thank you for contributing.',
      )
    : compose(
        ctx,
        to,
        'Your account request was declined',
        [`An administrator declined your ${ctx.siteName} account request, and the account has been closed.`],
        { label: 'Visit the site', url: ctx.publicUrl },
        'You can still read and share every public record.',
      );
}
