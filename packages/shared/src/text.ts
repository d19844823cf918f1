/**
 * Markdown as plain text, for card previews and link-preview descriptions (spec §2: previews are plain text).
 * Removes markup (emphasis, headings, links keep their text, images and HTML tags are dropped); not a parser, only
 * what a short preview needs.
 */
export function markdownToPlainText(markdown: string): string {
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
