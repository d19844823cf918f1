import { describe, expect, it } from 'vitest';
import { jsonForScript, markdownToPlainText } from '../src';

describe('jsonForScript', () => {
  it('keeps editor-written text from closing the script element or opening a comment, and reads back unchanged', () => {
    const value = { title: 'Sample </script><script>alert(1)</script> <!-- & \u2028\u2029 text', n: 3 };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('markdownToPlainText', () => {
  it('removes the marks of markdown, and keeps text without any as it is but for its spacing', () => {
    expect(markdownToPlainText('# Sample heading\n\n**Bold** _it_ ~~gone~~ `code` [a link](https://example.org) ![img](x.png) <b>tag</b>\n- item\n2. second')).toBe(
      'Sample heading Bold _it_ gone code a link tag item second',
    );
    expect(markdownToPlainText('  Sample text - not real, 2021.\n  Second   line 3 > 2  ')).toBe('Sample text - not real, 2021. Second line 3 > 2');
    expect(markdownToPlainText('Sample\n  > quoted\n  12. numbered')).toBe('Sample quoted numbered');
  });
});
