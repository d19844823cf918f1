import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate, useParams } from 'react-router';
import { can, paths, type GalleryItemDto } from '@app/shared';
import { ApiError, request, upload } from '../../lib/api';
import { fieldAria, FormAlert, FormField } from '../../components/FormField';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { useSession } from '../../lib/session';
import { useImageRecord } from './api';

/** One gallery image as GET/PUT /images/{id} return it. */
type GalleryImage = GalleryItemDto;

/**
 * /images/edit/{id}: change an image's caption or replace the file (PUT /images/{id}/edit, owner, admin or super).
 * A replaced file gets a new id, so the viewer opened afterwards is the one the server answers with.
 */
export default function ImageEditPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const user = useSession();
  const image = useQuery({
    queryKey: ['images', 'detail', id],
    queryFn: ({ signal }) => request<GalleryImage>(`/images/${encodeURIComponent(id)}`, { signal }),
  });

  const record = useImageRecord(image.data);
  if (image.isPending) return <Loading />;
  if (image.error) return <ErrorNotice error={image.error} onRetry={() => void image.refetch()} />;
  if (record.isPending) return <Loading />;
  if (record.error) return <ErrorNotice error={record.error} onRetry={() => void record.refetch()} />;
  // The server refuses the save anyway; saying so before any typing spares the editor their work.
  if (!can.modify(user, record.data)) {
    return (
      <section>
        <PageTitle title={t('editor.editImage')} />
        <p className="error-notice" role="alert" data-testid="edit-refused">
          {t('editor.notYours')}
        </p>
        <p>
          <Link to={paths.image(image.data._id)}>{t('editor.backToRecord', { title: image.data.title })}</Link>
        </p>
      </section>
    );
  }
  return <ImageEditForm id={id} image={image.data} />;
}

/** The caption and file form of an image the reader may change; saving opens the image the server answers with. */
function ImageEditForm({ id, image }: { id: string; image: GalleryImage }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const save = useMutation({
    mutationFn: (form: FormData) => upload<GalleryImage>(`/images/${encodeURIComponent(id)}/edit`, form, { method: 'PUT', onProgress: setProgress }),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries();
      void navigate(paths.image(saved._id));
    },
    onError: (err) => {
      setProgress(null);
      setErrors(err instanceof ApiError ? err.fields : { message: String(err) });
    },
  });

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
      <img src={image.imageUrl} alt={image.caption ?? image.title} className="image-edit-preview" style={{ maxWidth: 320 }} />
      <form ref={formRef} className="record-form" noValidate onSubmit={onSubmit} style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
        <FormAlert messages={general.map(([, m]) => t('editor.saveFailed', { message: m }))} />
        <FormField id="image-caption" label={t('editor.caption')} error={errors.caption}>
          <input name="caption" defaultValue={image.caption ?? ''} {...fieldAria('image-caption', { error: errors.caption })} />
        </FormField>
        <FormField id="image-file" label={t('editor.replaceImage')} error={errors.image}>
          <input name="image" type="file" accept="image/*" {...fieldAria('image-file', { error: errors.image })} />
        </FormField>
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
