import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  staffInviteBodySchema,
  type StaffInviteBody,
  type StaffInvited,
} from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { fieldError, type WriteResult } from '../listPage/useAdminResource.ts';

type InviteFields = keyof StaffInviteBody;

/**
 * The invitation of a member: e-mail, name and role, checked with the API's own schema before it
 * is sent; a refusal's named fields show at their fields.
 */
export function InviteForm(props: {
  busy: boolean;
  onInvite: (body: StaffInviteBody) => Promise<WriteResult<StaffInvited>>;
  onCancel: () => void;
}) {
  const id = useId();
  const form = useForm<StaffInviteBody>({
    defaultValues: { email: '', name: '', role: 'agent' },
    resolver: zodResolver(staffInviteBodySchema),
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (body) => {
    const result = await props.onInvite(body);
    for (const field of ['email', 'name', 'role'] as const) {
      const message = fieldError(result, field);
      if (message) form.setError(field, { type: 'server', message });
    }
  });

  /** The props that tie a control to its label, its error and its invalid state. */
  const control = (field: InviteFields) => ({
    id: `${id}-${field}`,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}-error` : undefined,
  });
  const error = (field: InviteFields) =>
    errors[field] && (
      <p id={`${id}-${field}-error`} className="field-error">
        {errors[field].message}
      </p>
    );

  return (
    <form
      className="admin-form card"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <h3 id={`${id}-title`}>{t('inviteTitle')}</h3>
      <p className="help">{t('inviteHelp')}</p>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('email')}</label>
          <input
            type="email"
            autoComplete="off"
            {...control('email')}
            {...form.register('email')}
          />
          {error('email')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('memberName')}</label>
          <input type="text" autoComplete="off" {...control('name')} {...form.register('name')} />
          {error('name')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>{t('memberRole')}</label>
          <select {...control('role')} {...form.register('role')}>
            <option value="agent">{t('role_agent')}</option>
            <option value="admin">{t('role_admin')}</option>
          </select>
          {error('role')}
        </div>
      </div>
      <div className="actions">
        <button type="button" className="secondary" onClick={props.onCancel}>
          {t('cancel')}
        </button>
        <button type="submit" disabled={props.busy}>
          {props.busy ? t('inviting') : t('sendInvite')}
        </button>
      </div>
    </form>
  );
}
