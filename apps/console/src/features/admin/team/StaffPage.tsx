import { useState } from 'react';
import {
  type AdminCategory,
  adminRoutes,
  type CompanyDetails,
  type StaffAdminEntry,
  type StaffInviteBody,
} from '@frontdesk/protocol';
import { useAppSelector } from '../../../app/hooks.ts';
import { t } from '../../../i18n/messages.ts';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { formatDateTime, useCompanyTimeZone } from '../listPage/formatTime.ts';
import { useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';
import { useRefreshOnReturn } from '../listPage/useRefreshOnReturn.ts';
import { InviteForm } from './InviteForm.tsx';
import { MemberDialog, type AssignmentGroups } from './MemberDialog.tsx';
import { OneTimePasswordNotice, type IssuedPassword } from './OneTimePasswordNotice.tsx';

type Team = { staff: StaffAdminEntry[]; categories: AdminCategory[]; groups: AssignmentGroups };

const loadTeam = async (
  { api, params, token }: AdminRequest,
  company: Promise<CompanyDetails>,
): Promise<Team> => {
  const [staff, categories, { assignments, assignmentGroups }] = await Promise.all([
    api(adminRoutes.companyStaff, { params, token }),
    api(adminRoutes.companyCategories, { params, token }),
    company,
  ]);
  return {
    staff: staff.data,
    categories: categories.data,
    groups: { assignments, assignmentGroups },
  };
};

/**
 * Active, deactivated, or invited and not yet signed in (until when the invitation works), in
 * words and as the kind of its marker.
 */
function memberStatus(
  member: StaffAdminEntry,
  timeZone: string,
): { kind: 'on' | 'off' | 'invited'; text: string } {
  if (!member.active) return { kind: 'off', text: t('status_deactivated') };
  const until = member.oneTimePasswordExpiresAt;
  if (until === null) return { kind: 'on', text: t('status_active') };
  if (Date.parse(until) < Date.now()) return { kind: 'invited', text: t('status_inviteExpired') };
  return {
    kind: 'invited',
    text: t('status_invited', { date: formatDateTime(until, timeZone) }),
  };
}

type Asking = { kind: 'deactivate' | 'reset'; member: StaffAdminEntry };

/**
 * The team (`/console/admin/staff`): every member with role, status and categories; invite,
 * edit, deactivate or reactivate, reset a password. A one-time password is shown once, to be
 * handed over.
 */
export function StaffPage() {
  const resource = useAdminResource(loadTeam);
  const { write, busy } = resource;
  // An invited member's first sign-in changes their status without the admin doing anything.
  useRefreshOnReturn(resource.refresh);
  const timeZone = useCompanyTimeZone();
  const me = useAppSelector((state) => state.auth.login?.user.id);
  const [inviting, setInviting] = useState(false);
  const [issued, setIssued] = useState<IssuedPassword | null>(null);
  const [editing, setEditing] = useState<StaffAdminEntry | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);

  async function invite(body: StaffInviteBody) {
    const result = await write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.inviteStaff, { params, body, token, ifMatch }).then(({ data }) => data),
      (data) => t('invitedOutcome', { name: data.member.name }),
    );
    if (result.ok) {
      setInviting(false);
      const { member, oneTimePassword, expiresAt } = result.data;
      setIssued({
        kind: 'invite',
        name: member.name,
        email: member.email,
        oneTimePassword,
        expiresAt,
      });
    }
    return result;
  }

  async function setActive(member: StaffAdminEntry, active: boolean) {
    await write(
      ({ api, token, companyId }, ifMatch) =>
        api(adminRoutes.updateStaff, {
          params: { id: String(companyId), staffId: String(member.id) },
          body: { active },
          token,
          ifMatch,
        }),
      () => t(active ? 'reactivatedOutcome' : 'deactivatedOutcome', { name: member.name }),
    );
    setAsking(null);
  }

  async function resetPassword(member: StaffAdminEntry) {
    const result = await write(
      ({ api, token, companyId }, ifMatch) =>
        api(adminRoutes.resetStaffPassword, {
          params: { id: String(companyId), staffId: String(member.id) },
          token,
          ifMatch,
        }).then(({ data }) => data),
      () => t('resetOutcome', { name: member.name }),
    );
    setAsking(null);
    if (result.ok)
      setIssued({ kind: 'reset', name: member.name, email: member.email, ...result.data });
  }

  return (
    <AdminPage
      title={t('group_staff')}
      intro={<p>{t('staffIntro')}</p>}
      resource={resource}
      testId="staff-page"
      notice={
        issued && (
          <OneTimePasswordNotice
            issued={issued}
            timeZone={timeZone}
            onDone={() => setIssued(null)}
          />
        )
      }
    >
      {(team) => {
        const categoryName = new Map(team.categories.map((c) => [c.id, c.name]));
        return (
          <>
            {inviting ? (
              <InviteForm busy={busy} onInvite={invite} onCancel={() => setInviting(false)} />
            ) : (
              <p>
                <button type="button" onClick={() => setInviting(true)}>
                  {t('inviteMember')}
                </button>
              </p>
            )}
            <table className="admin-table staff-table">
              <thead>
                <tr>
                  <th scope="col">{t('staffColumnMember')}</th>
                  <th scope="col">{t('staffColumnRole')}</th>
                  <th scope="col">{t('staffColumnStatus')}</th>
                  <th scope="col">{t('staffColumnCategories')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('staffColumnActions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.staff.map((member) => {
                  const status = memberStatus(member, timeZone);
                  return (
                    <tr
                      key={member.id}
                      data-testid="staff-row"
                      data-active={member.active}
                      className={member.active ? undefined : 'inactive'}
                    >
                      <th scope="row">
                        <span className="member-name">
                          {member.name}
                          {member.id === me && <span className="tag">{t('youTag')}</span>}
                        </span>
                        <span className="member-email">
                          <bdi>{member.email}</bdi>
                        </span>
                      </th>
                      <td data-label={t('staffColumnRole')}>{t(`role_${member.role}`)}</td>
                      <td data-label={t('staffColumnStatus')}>
                        <span className={`status status-${status.kind}`}>{status.text}</span>
                      </td>
                      <td data-label={t('staffColumnCategories')}>
                        {member.categoryIds.length === 0
                          ? t('notChosen')
                          : member.categoryIds
                              .map((id) => categoryName.get(id) ?? String(id))
                              .join(', ')}
                      </td>
                      <td className="row-actions">
                        <button
                          type="button"
                          className="secondary"
                          aria-label={t('editMemberLabel', { name: member.name })}
                          onClick={() => setEditing(member)}
                        >
                          {t('editMember')}
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          aria-label={t('resetPasswordLabel', { name: member.name })}
                          onClick={() => setAsking({ kind: 'reset', member })}
                        >
                          {t('resetPassword')}
                        </button>
                        {/* One button for both, so the focus it returns to after the
                          confirmation is still there when the member has changed. */}
                        <button
                          type="button"
                          className={member.active ? 'secondary danger-text' : 'secondary'}
                          disabled={busy && !member.active}
                          aria-label={t(member.active ? 'deactivateLabel' : 'reactivateLabel', {
                            name: member.name,
                          })}
                          onClick={() =>
                            member.active
                              ? setAsking({ kind: 'deactivate', member })
                              : void setActive(member, true)
                          }
                        >
                          {t(member.active ? 'deactivate' : 'reactivate')}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {editing && (
              <MemberDialog
                member={editing}
                categories={team.categories}
                groups={team.groups}
                busy={busy}
                onSave={(body) =>
                  write(
                    ({ api, token, companyId }, ifMatch) =>
                      api(adminRoutes.updateStaff, {
                        params: { id: String(companyId), staffId: String(editing.id) },
                        body,
                        token,
                        ifMatch,
                      }),
                    ({ data }) => t('memberSavedOutcome', { name: data.name }),
                    'caller',
                  )
                }
                onReload={() => void resource.reload()}
                onClose={() => setEditing(null)}
              />
            )}
            {asking?.kind === 'deactivate' && (
              <ConfirmDialog
                title={t('deactivateTitle', { name: asking.member.name })}
                description={<p>{t('deactivateText')}</p>}
                confirmLabel={t('deactivate')}
                cancelLabel={t('cancel')}
                danger
                busy={busy}
                onConfirm={() => void setActive(asking.member, false)}
                onCancel={() => setAsking(null)}
                testId="confirm-deactivate"
              />
            )}
            {asking?.kind === 'reset' && (
              <ConfirmDialog
                title={t('resetTitle', { name: asking.member.name })}
                description={<p>{t('resetText')}</p>}
                confirmLabel={t('resetConfirm')}
                cancelLabel={t('cancel')}
                danger
                busy={busy}
                onConfirm={() => void resetPassword(asking.member)}
                onCancel={() => setAsking(null)}
                testId="confirm-reset"
              />
            )}
          </>
        );
      }}
    </AdminPage>
  );
}
