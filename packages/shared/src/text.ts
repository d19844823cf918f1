/** A character or line start that one of markdownToPlainText's rules below removes; without one, none applies. */
const MARKDOWN_SIGN = /[`<\[*_~]|^\s{0,3}(?:#{1,6}|>|[-*+]|\d+\.)\s/m;

/**
 * Markdown as plain text, for card previews and link-preview descriptions (previews are plain text).
 * Removes markup (emphasis, headings, links keep their text, images and HTML tags are dropped); not a parser, only
 * what a short preview needs.
 */
export function markdownToPlainText(markdown: string, spacing: 'even' | 'asIs' = 'even'): string {
  // Most text holds no markdown at all: then only its spacing changes, or nothing (`asIs`: a search's snippets even out
  // only the few words they show, not the whole text of twenty hits a page).
  if (!MARKDOWN_SIGN.test(markdown)) return spacing === 'even' ? markdown.replace(/\s+/g, ' ').trim() : markdown;
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
