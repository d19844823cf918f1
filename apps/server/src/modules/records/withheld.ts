import { can, isWithheldPlaceholder, sourceErrorMessage, type Actor, type Source } from '@app/shared';
import { httpError } from '../../errors';
import { assertRecentStepUp } from '../../plugins/step-up';

/**
 * What an edit may do to a record's withheld witness testimony (decisions.md §4): the details go to staff and to the
 * testimony's author only (can.readWithheld), and only staff may make one public. An editor who is not the author (a
 * contributor whose record a merge gave another's testimony) is sent the placeholder and sends it back; the stored
 * testimony must survive that edit unchanged, whatever came in its place, and keep its reader.
 */

const sameText = (a: string | undefined, b: string | undefined) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** The stored testimony a source sent without `withheld` is, by its title, note or link: lifting it. */
function liftedFrom(source: Source, readable: readonly Source[]): Source | undefined {
  if (source.withheld) return undefined;
  return readable.find(
    (stored) => sameText(stored.title, source.title) || (stored.note && sameText(stored.note, source.note)) || (stored.url && sameText(stored.url, source.url)),
  );
}

const withoutAuthor = ({ authorId: _authorId, ...content }: Source) => JSON.stringify(content);

/**
 * The sources an edit stores: `input` as sent, with each placeholder replaced by a stored testimony the editor may not
 * read (in order; any left over kept at the end, so none is lost by an editor who cannot see it), and the testimonies
 * the editor may read keeping their author (the same testimony sent back, else the next withheld one in order: staff
 * rewording one keep its reader). A contributor's source that is a stored testimony without `withheld` is refused.
 */
export function settleWithheld(stored: readonly Source[], input: readonly Source[], actor: Actor, record: { userId?: string | null }): Source[] {
  const withheld = stored.filter((source) => source.withheld);
  const hidden = withheld.filter((source) => !can.readWithheld(actor, record, source));
  const readable = withheld.filter((source) => can.readWithheld(actor, record, source));
  for (const [index, source] of input.entries()) {
    if (!liftedFrom(source, readable)) continue;
    if (!can.liftWithheld(actor)) {
      throw httpError.badRequest({ sources: sourceErrorMessage(index, 'withheld', 'Only an admin can make a withheld witness testimony public') });
    }
    // Lifting `withheld` can expose a witness: a fresh second factor first (decisions.md §4).
    assertRecentStepUp(actor);
  }
  const unclaimed = [...readable];
  const claim = (source: Source): Source | undefined => {
    const at = unclaimed.findIndex((candidate) => withoutAuthor(candidate) === withoutAuthor(source));
    return at >= 0 ? unclaimed.splice(at, 1)[0] : undefined;
  };
  // Exact copies first, so a reordered list keeps each testimony's author.
  const exact = input.map((source) => (source.withheld && !isWithheldPlaceholder(source) ? claim(source) : undefined));
  const out: Source[] = [];
  for (const [index, source] of input.entries()) {
    if (hidden.length && isWithheldPlaceholder(source)) {
      out.push(hidden.shift()!);
      continue;
    }
    if (!source.withheld || isWithheldPlaceholder(source)) {
      out.push(source);
      continue;
    }
    const before = exact[index] ?? unclaimed.shift();
    out.push(before?.authorId ? { ...source, authorId: before.authorId } : source);
  }
  return [...out, ...hidden];
}
