import { describe, expect, it } from 'vitest';
import { parseSourceError, sourcesSchema } from '../src/index';

/** A refused source's message names the source and the field, so the web form can show it beside that input. */
const messageFor = (sources: unknown) => sourcesSchema.safeParse(sources).error!.issues[0]!.message;

describe('source errors', () => {
  it('name the source (from 1) and the field the schema refused', () => {
    const report = { kind: 'media', title: 'Test report' };
    expect(messageFor([report, { ...report, url: 'javascript:1' }])).toBe('Source 2 (url): Link must start with http:// or https://');
    expect(parseSourceError(messageFor([{ kind: 'media' }]))).toEqual({ index: 0, field: 'title', message: 'Title is required' });
    expect(parseSourceError(messageFor([report, report, { ...report, date: '2021-13' }]))).toEqual({ index: 2, field: 'date', message: 'Date must be YYYY, YYYY-MM or YYYY-MM-DD (such as 2021, 2021-03 or 2021-03-15)' });
  });

  it('say what a date looks like when it is too long, not only how long it may be (issue 52 item 20)', () => {
    expect(parseSourceError(messageFor([{ kind: 'media', title: 'Test report', date: '2021-03-15T10:00' }]))).toEqual({
      index: 0,
      field: 'date',
      message: 'Date must be YYYY, YYYY-MM or YYYY-MM-DD (such as 2021, 2021-03 or 2021-03-15)',
    });
  });

  it('name no field when the source as a whole is refused, and are not read from other messages', () => {
    expect(parseSourceError(messageFor([{ kind: 'media', title: 'Test', withheld: true }]))).toEqual({ index: 0, message: 'Only a witness testimony can be withheld' });
    expect(parseSourceError(messageFor('not json'))).toBeNull();
    expect(parseSourceError(messageFor({ kind: 'media' }))).toBeNull();
  });
});
