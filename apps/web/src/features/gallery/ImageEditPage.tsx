import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { paths } from '@app/shared';
import { ApiError, request, upload } from '../../lib/api';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';

/** One gallery image as GET/PUT /images/{id} return it. */
interface GalleryImage {
  _id: string;
  imageUrl: string;
  caption: string | null;
  title: string;
}

/**
 * /images/edit/{id}: change an image's caption or replace the file (PUT /images/{id}/edit, owner, admin or super).
 * A replaced file gets a new id, so the viewer opened afterwards is the one the server answers with.
 */
export default function ImageEditPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const image = useQuery({
    queryKey: ['images', 'detail', id],
    queryFn: ({ signal }) => request<GalleryImage>(`/images/${encodeURIComponent(id)}`, { signal }),
  });
  const save = useMutation({
    mutationFn: (form: FormData) => upload<GalleryImage>(`/images/${encodeURIComponent(id)}/edit`, form, { method: 'PUT', onProgress: setProgress }),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries();
      navigate(paths.image(saved._id));
    },
    onError: (err) => {
      setProgress(null);
      setErrors(err instanceof ApiError ? err.fields : { message: String(err) });
    },
  });

  if (image.isPending) return <Loading />;
  if (image.error) return <ErrorNotice error={image.error} onRetry={() => void image.refetch()} />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const source = new FormData(event.currentTarget);
    const body = new FormData();
    body.append('caption', String(source.get('caption') ?? ''));
    const file = source.get('image');
    if (file instanceof File && file.size > 0) body.append('image', file);
    setErrors({});
    save.mutate(body);
  };
  const general = Object.entries(errors).filter(([k]) => k !== 'caption' && k !== 'image');

  return (
    <section>
      <PageTitle title={t('editor.editImage')} />
      <img src={image.data.imageUrl} alt={image.data.caption ?? image.data.title} className="image-edit-preview" style={{ maxWidth: 320 }} />
      <form ref={formRef} className="record-form" noValidate onSubmit={onSubmit} style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
        {general.length > 0 ? (
          <div className="error-notice" role="alert">
            {general.map(([k, m]) => (
              <p key={k}>{t('editor.saveFailed', { message: m })}</p>
            ))}
          </div>
        ) : null}
        <div className="form-field">
          <label htmlFor="image-caption">{t('editor.caption')}</label>
          <input
            id="image-caption"
            name="caption"
            defaultValue={image.data.caption ?? ''}
            aria-invalid={errors.caption ? true : undefined}
            aria-describedby={errors.caption ? 'image-caption-error' : undefined}
          />
          {errors.caption ? <p className="field-error" id="image-caption-error">{errors.caption}</p> : null}
        </div>
        <div className="form-field">
          <label htmlFor="image-file">{t('editor.replaceImage')}</label>
          <input
            id="image-file"
            name="image"
            type="file"
            accept="image/*"
            aria-invalid={errors.image ? true : undefined}
            aria-describedby={errors.image ? 'image-file-error' : undefined}
          />
          {errors.image ? <p className="field-error" id="image-file-error">{errors.image}</p> : null}
        </div>
        {progress !== null ? (
          <div>
            <label htmlFor="image-progress">{t('editor.uploadProgress')}</label> <progress id="image-progress" max={100} value={progress} /> {progress}%
          </div>
        ) : null}
        <div>
          <button type="submit" className="btn" disabled={save.isPending}>
            {save.isPending ? t('editor.saving') : t('common.update')}
          </button>
        </div>
      </form>
    </section>
  );
}
