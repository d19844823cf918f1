import { describe, expect, it } from 'vitest';
import { etagMatches } from '../src/etag';

describe('If-None-Match', () => {
  it('matches by weak comparison, in a list, or *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc" , "y"', '"abc"')).toBe(true);
    expect(etagMatches(' * ', '"abc"')).toBe(true);
  });

  it('does not match another tag, an empty header or a missing tag', () => {
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches('"abc-1"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
    expect(etagMatches('"abc"', undefined)).toBe(false);
  });
});
