import { parseSourceError, SOURCE_KINDS, type Source, type SourceField, type SourceKind } from '@app/shared';

/** The text inputs of one source in the editor, in the order the form shows them. */
export const SOURCE_TEXT_FIELDS = ['title', 'publisher', 'date', 'url', 'language', 'note'] as const;
export type SourceTextField = (typeof SOURCE_TEXT_FIELDS)[number];

/** One source as the editor holds it: every input's text, and a key that stays with it when others are removed. */
export type SourceDraft = { key: number; kind: SourceKind; withheld: boolean; /** Stored withheld: only staff may lift it. */ storedWithheld?: boolean } & Record<
  SourceTextField,
  string
>;

/** What a new source starts as: a media report, the kind most records cite. */
export const NEW_SOURCE_KIND: SourceKind = 'media';

export function emptyDraft(key: number): SourceDraft {
  return { key, kind: NEW_SOURCE_KIND, withheld: false, title: '', publisher: '', date: '', url: '', language: '', note: '' };
}

/** A stored source as the editor's inputs (absent fields as empty text). */
export function toDraft(source: Source, key: number): SourceDraft {
  const draft = emptyDraft(key);
  const kind = SOURCE_KINDS.includes(source.kind) ? source.kind : 'other';
  for (const field of SOURCE_TEXT_FIELDS) draft[field] = typeof source[field] === 'string' ? source[field] : '';
  return { ...draft, kind, withheld: source.withheld === true, storedWithheld: source.withheld === true };
}

/** The drafts as the sources the server takes: the title always (so an empty one is refused, not dropped), other fields when filled. */
export function toSources(drafts: readonly SourceDraft[]): Source[] {
  return drafts.map((draft) => {
    const source: Record<string, unknown> = { kind: draft.kind, title: draft.title };
    for (const field of SOURCE_TEXT_FIELDS) if (field !== 'title' && draft[field].trim()) source[field] = draft[field];
    // Only a witness's testimony can be withheld: the box is hidden, and ignored, for other kinds.
    if (draft.withheld && draft.kind === 'witness') source.withheld = true;
    return source as unknown as Source;
  });
}

/** The `sources` field's value: the JSON text a multipart body carries (the form's hidden input). */
export const serialiseSources = (drafts: readonly SourceDraft[]): string => JSON.stringify(toSources(drafts));

/** Where the server's `sources` error belongs: a source (by its draft key) and maybe one of its inputs, or the whole list. */
export interface PlacedSourceError {
  key?: number;
  field?: SourceField;
  message: string;
}

export function placeSourceError(error: string | undefined, drafts: readonly SourceDraft[]): PlacedSourceError | null {
  if (!error) return null;
  const parsed = parseSourceError(error);
  const draft = parsed ? drafts[parsed.index] : undefined;
  if (!parsed || !draft) return { message: error };
  return { key: draft.key, field: parsed.field, message: parsed.message };
}
