import type { RecordDto } from '@app/shared';

/** A record as the API sends it, for component tests: test content, naming no real person or place. */
export function testRecord(over: Partial<RecordDto> = {}): RecordDto {
  return {
    _id: 'r1',
    category: 'events',
    title: 'Test record - not real',
    subtitle: null,
    description: 'Test content, not real data.',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    imageUrl: '',
    images: [],
    approved: false,
    approvedAt: null,
    public: true,
    graphic: false,
    userId: 'owner',
    ...over,
  };
}
