import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageTitle } from '../src/components/PageTitle';
import { isExpired, session, TOKEN_KEY } from '../src/lib/session';
import { formatDate, formatReportDate } from '../src/lib/dates';

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const token = (claims: Record<string, unknown>) => `${b64({ alg: 'HS256' })}.${b64(claims)}.signature`;

describe('page title', () => {
  it('is a visible heading under five words and a hidden one otherwise', () => {
    const { rerender } = render(<PageTitle title="Victims (3)" />);
    expect(screen.getByRole('heading', { name: 'Victims (3)' })).not.toHaveClass('visually-hidden');
    expect(document.title).toMatch(/^Victims \(3\) \| /);
    rerender(<PageTitle title="An activation link has been sent to your email" />);
    expect(screen.getByRole('heading')).toHaveClass('visually-hidden');
  });
});

describe('session', () => {
  afterEach(() => session.clear());

  it('keeps a signed-in token under the token key and reads its claims', () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    expect(session.signIn(token({ id: 'u1', role: 'admin', name: 'A B', exp }))).toBe(true);
    expect(localStorage.getItem(TOKEN_KEY)).toBeTruthy();
    expect(session.get()).toMatchObject({ id: 'u1', role: 'admin', exp });
  });

  it('signs out at start when the stored token has expired (seconds)', () => {
    const exp = Math.floor(Date.now() / 1000) - 1;
    session.signIn(token({ id: 'u1', role: 'contributor', exp }));
    expect(isExpired(session.get()!)).toBe(true);
    expect(session.expireIfNeeded()).toBe(true);
    expect(session.get()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('refuses an unreadable token', () => {
    expect(session.signIn('garbage')).toBe(false);
    expect(session.get()).toBeNull();
  });
});

describe('dates', () => {
  it('formats as the spec says in English and in the Ethiopian calendar in Amharic', () => {
    const d = new Date(2021, 0, 5, 15, 4);
    expect(formatDate(d)).toBe('Jan 5, 2021');
    expect(formatReportDate(d)).toBe('Jan 5, 2021 03:04 PM');
    const am = formatDate(d, 'am');
    expect(am).toMatch(/2013/); // 5 January 2021 is in Ethiopian year 2013
    expect(am).not.toMatch(/2021/);
  });

  it('gives nothing for a missing or unreadable date, in either language', () => {
    for (const lang of ['en', 'am']) {
      expect(formatDate(null, lang)).toBe('');
      expect(formatDate('not a date', lang)).toBe('');
      expect(formatReportDate(new Date(Number.NaN), lang)).toBe('');
    }
    expect(formatDate('2021-01-05T12:00:00Z')).toBe('Jan 5, 2021');
  });
});

describe('https redirect', () => {
  it('sends plain http to https except on local hosts', async () => {
    const { httpsRedirectTarget } = await import('../src/lib/https');
    expect(httpsRedirectTarget({ protocol: 'http:', hostname: 'example.org', href: 'http://example.org/victims?page=2' })).toBe(
      'https://example.org/victims?page=2',
    );
    expect(httpsRedirectTarget({ protocol: 'https:', hostname: 'example.org', href: 'https://example.org/' })).toBeNull();
    for (const hostname of ['localhost', '127.0.0.1', 'app.localhost']) {
      expect(httpsRedirectTarget({ protocol: 'http:', hostname, href: `http://${hostname}/` })).toBeNull();
    }
  });
});
