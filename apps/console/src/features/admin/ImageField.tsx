import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { routes, UPLOAD_LIMIT_BYTES } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';
import { describedBy, FieldShell, useFieldError, useFieldIds } from './FieldShell.tsx';
import type { SettingsValues } from './settingsDraft.ts';
import type { ImageFit, SettingsField } from './settingsGroups.ts';

/**
 * The pictures a browser shows that the API also accepts as an image upload (it checks the
 * bytes: apps/api/src/uploads/content-type.ts; HEIC is accepted there but few browsers show it).
 */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];
const MB = 1024 * 1024;

/** What is wrong with a chosen file before it is sent, or null. */
export function imageFileProblem(file: File): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return t('imageWrongType');
  if (file.size > UPLOAD_LIMIT_BYTES.image) {
    return t('imageTooLarge', {
      size: (file.size / MB).toFixed(1),
      limit: String(UPLOAD_LIMIT_BYTES.image / MB),
    });
  }
  return null;
}

/** The boxes a picture is shown in, as the guest's pages use it (issue 16: a fit preview). */
const FIT_BOXES: Record<ImageFit, readonly ('phone' | 'desktop')[]> = {
  logo: ['desktop'],
  icon: ['desktop'],
  cover: ['phone', 'desktop'],
  picture: ['desktop'],
};

function FitPreview({ url, fit }: { url: string; fit: ImageFit }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === url) return <p className="help">{t('imageNotShown')}</p>;
  return (
    <figure className="fit">
      <figcaption>{t('imageFit')}</figcaption>
      <div className="fit-boxes">
        {FIT_BOXES[fit].map((box) => (
          <img
            key={box}
            src={url}
            alt={t(box === 'phone' ? 'imageFitPhone' : 'imageFitDesktop')}
            className={`fit-${fit} fit-${box}`}
            onError={() => setFailed(url)}
          />
        ))}
      </div>
    </figure>
  );
}

/**
 * A picture (logo, icon, background, page picture): an https: address, or a file uploaded here
 * (checked for type and size first), with how it will fit.
 */
export function ImageField({ name, fit }: { name: SettingsField; fit: ImageFit }) {
  const { register, setValue, control } = useFormContext<SettingsValues>();
  const { api } = useServices();
  const store = useAppStore();
  const ids = useFieldIds();
  const error = useFieldError(name);
  const value = useWatch({ control, name });
  const [upload, setUpload] = useState<{ busy: boolean; problem: string | null }>({
    busy: false,
    problem: null,
  });
  const url = typeof value === 'string' ? value.trim() : '';

  async function send(file: File) {
    const problem = imageFileProblem(file);
    if (problem) return setUpload({ busy: false, problem });
    const login = store.getState().auth.login;
    if (!login) return;
    setUpload({ busy: true, problem: null });
    const form = new FormData();
    form.append('companyId', String(login.user.companyId));
    form.append('image', file);
    try {
      const { data } = await api(routes.upload, {
        params: { type: 'image' },
        form,
        token: login.access_token,
      });
      setValue(name, data.fileUrl, { shouldDirty: true, shouldTouch: true, shouldValidate: true });
      setUpload({ busy: false, problem: null });
    } catch (failure) {
      setUpload({
        busy: false,
        problem: t('imageUploadFailed', { reason: describeError(failure) }),
      });
    }
  }

  const uploadId = `${ids.control}-file`;
  return (
    <FieldShell
      name={name}
      ids={ids}
      error={error ?? upload.problem ?? undefined}
      footer={url !== '' && <FitPreview url={url} fit={fit} />}
    >
      <div className="image-input">
        <input
          id={ids.control}
          type="text"
          inputMode="url"
          dir="ltr"
          placeholder={t('imageAddress')}
          {...describedBy(ids, name, error ?? upload.problem ?? undefined)}
          {...register(name)}
        />
        <label className="upload-button" htmlFor={uploadId}>
          {upload.busy ? t('uploadingImage') : t('uploadImage')}
          <input
            id={uploadId}
            type="file"
            className="visually-hidden"
            accept={IMAGE_TYPES.join(',')}
            disabled={upload.busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void send(file);
            }}
          />
        </label>
      </div>
    </FieldShell>
  );
}
