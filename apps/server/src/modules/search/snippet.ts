import type { SnippetPart } from '@app/shared';

/**
 * The markers ts_headline puts around the words it found: characters of Unicode's private use area, which no
 * record's text keeps (the query removes them from the text before highlighting), so a record cannot forge a
 * highlight, and the snippet travels as plain text, never as HTML.
 */
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

/** A highlighted headline as plain-text pieces, the found words marked `match`. */
export function snippetParts(headline: string | null): SnippetPart[] {
  if (!headline) return [];
  const parts: SnippetPart[] = [];
  const push = (text: string, match: boolean) => {
    if (!text) return;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
  };
  const [before = '', ...found] = headline.split(MATCH_START);
  push(before.replaceAll(MATCH_END, ''), false);
  for (const piece of found) {
    const end = piece.indexOf(MATCH_END);
    if (end === -1) push(piece, true);
    else {
      push(piece.slice(0, end), true);
      push(piece.slice(end + 1).replaceAll(MATCH_END, ''), false);
    }
  }
  return parts;
}
