import { describe, expect, it } from 'vitest';
import { SIGNED_LINK_WINDOW_SECONDS, type MediaDto } from '@app/shared';
import { refreshSignedLinks } from '../src/features/records/api';
import { testRecord } from './fixtures';

const image = (imageUrl: string) => ({ imageId: 'i1', imageUrl, variants: [] }) as unknown as MediaDto;

describe('records that link files with signed links', () => {
  it('are read again within half a window of their links, and others are not polled', () => {
    const signed = testRecord({ public: false, images: [image('/media/public/a.jpg?v=1.abc.def')] });
    const plain = testRecord({ images: [image('/media/public/b.jpg')] });
    expect(refreshSignedLinks([plain, signed])).toBe((SIGNED_LINK_WINDOW_SECONDS * 1000) / 2);
    expect(refreshSignedLinks([plain])).toBe(false);
    expect(refreshSignedLinks([])).toBe(false);
    expect(refreshSignedLinks(undefined)).toBe(false);
  });
});
