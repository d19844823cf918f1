import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CATEGORIES, type CategoryDef, type CategorySlug, type RecordDto } from '@app/shared';
import { request, upload } from '../../lib/api';

/**
 * Writes on records. Every successful write invalidates every cached query: the category's lists and details
 * (recordKeys), and the derived reads (news, gallery) that other screens keep under their own keys.
 */
function useInvalidateAfterWrite() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

interface UploadVariables {
  form: FormData;
  onProgress?: (percent: number) => void;
}

export function useCreateRecord(category: CategoryDef) {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: ({ form, onProgress }: UploadVariables) => upload<RecordDto>(`/${category.slug}`, form, { onProgress }),
    onSuccess: invalidate,
  });
}

export function useEditRecord(category: CategoryDef, id: string) {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: ({ form, onProgress }: UploadVariables) =>
      upload<RecordDto>(`/${category.slug}/${encodeURIComponent(id)}/edit`, form, { method: 'PUT', onProgress }),
    onSuccess: invalidate,
  });
}

/** Moves a record to the trash (delete never destroys evidence). */
export function useDeleteRecord() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (record: Pick<RecordDto, '_id' | 'category'>) =>
      request<RecordDto>(`/${record.category}/${encodeURIComponent(record._id)}/delete`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useApproveRecord() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (record: Pick<RecordDto, '_id' | 'category'>) =>
      request<RecordDto>(`/${record.category}/approve/${encodeURIComponent(record._id)}`, { method: 'PUT' }),
    onSuccess: invalidate,
  });
}

/** Toggles the public flag of a category with `hasAccessToggle` (events, massacres). */
export function useToggleAccess() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (record: Pick<RecordDto, '_id' | 'category'>) =>
      request<RecordDto>(`/${record.category}/${encodeURIComponent(record._id)}/access`, { method: 'PUT' }),
    onSuccess: invalidate,
  });
}

/** The delete call for one image: per record for categories with several images, else through /images. */
function imageDeletePath(category: CategorySlug, recordId: string, imageId: string): string {
  return CATEGORIES[category].media === 'images'
    ? `/${category}/${encodeURIComponent(recordId)}/image/${encodeURIComponent(imageId)}/delete`
    : `/images/${encodeURIComponent(imageId)}/delete`;
}

export function useDeleteImage() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: ({ record, imageId }: { record: Pick<RecordDto, '_id' | 'category'>; imageId: string }) =>
      request<RecordDto>(imageDeletePath(record.category, record._id, imageId), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
