/** A character or line start that one of markdownToPlainText's rules below removes; without one, none applies. */
const MARKDOWN_SIGN = /[`<\[*_~]|^\s{0,3}(?:#{1,6}|>|[-*+]|\d+\.)\s/m;

/** Whether markdownToPlainText would remove anything from `text` but spacing. */
export function hasMarkdown(text: string): boolean {
  return MARKDOWN_SIGN.test(text);
}

/**
 * Markdown as plain text, for card previews and link-preview descriptions (previews are plain text).
 * Removes markup (emphasis, headings, links keep their text, images and HTML tags are dropped); not a parser, only
 * what a short preview needs.
 */
export function markdownToPlainText(markdown: string): string {
  // Most text holds no markdown at all: then only its spacing changes (a search cuts twenty snippets a page from it).
  if (!hasMarkdown(markdown)) return markdown.replace(/\s+/g, ' ').trim();
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/(\*\*|__|\*|~~|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * JSON to place inside `<script type="application/json">` in a page: record text is written by editors, so "<" (which
 * could close the element or open a comment), ">" and "&" are escaped, as are the line separators some parsers refuse.
 * JSON.parse reads the result back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML or XML, in content or a quoted attribute: the one escape of the code base (pages, e-mails, feeds). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
