import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPY_FEEDBACK_MS, SHARE_TEXT, descriptionPreview, markdownToPlainText } from '@app/shared';
import { CopyButton } from '../src/components/CopyButton';
import { Markdown } from '../src/components/Markdown';
import { shareLinks } from '../src/components/ShareControl';
import { hashtag } from '../src/lib/brand';
import '../src/lib/i18n';

describe('Markdown', () => {
  it('renders markdown and drops scripts, event handlers and javascript: links', () => {
    const { container } = render(
      <Markdown>{'**bold** [ok](https://example.org) [bad](javascript:alert(1))\n\n<img src=x onerror="alert(1)"><script>alert(2)</script>'}</Markdown>,
    );
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    const ok = screen.getByRole('link', { name: 'ok' });
    expect(ok).toHaveAttribute('rel', 'noopener noreferrer');
    expect(ok).toHaveAttribute('target', '_blank');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
  });
});

describe('CopyButton', () => {
  afterEach(() => vi.useRealTimers());

  it(`reads "copied" for ${COPY_FEEDBACK_MS} ms after a click`, async () => {
    vi.useFakeTimers();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyButton text="https://example.test/victims/1" />);
    const button = screen.getByRole('button');
    expect(button).toHaveTextContent('Copy link');
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('https://example.test/victims/1');
    expect(button).toHaveTextContent('copied');
    act(() => vi.advanceTimersByTime(COPY_FEEDBACK_MS - 1));
    expect(button).toHaveTextContent('copied');
    act(() => vi.advanceTimersByTime(1));
    expect(button).toHaveTextContent('Copy link');
  });
});

describe('share links and previews', () => {
  it('give each of the four networks the URL and the share text with the hashtag', () => {
    const url = 'https://example.test/victims/1';
    const links = shareLinks(url);
    expect(links.map((l) => l.network)).toEqual(['facebook', 'x', 'telegram', 'whatsapp']);
    for (const { href } of links) {
      const decoded = decodeURIComponent(href.replace(/\+/g, ' '));
      expect(decoded).toContain(url);
      expect(decoded).toContain(SHARE_TEXT);
      expect(decoded).toContain(hashtag().slice(1));
    }
  });

  it('previews are plain text cut at the preview length', () => {
    const text = markdownToPlainText('## Title\n\n**Bold** and [a link](https://example.org) text.');
    expect(text).toBe('Title Bold and a link text.');
    expect(descriptionPreview('x'.repeat(200), 150)).toBe(`${'x'.repeat(150)}...`);
  });
});
