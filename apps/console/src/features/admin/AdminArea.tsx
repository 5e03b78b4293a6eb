import { t } from '../../i18n/messages.ts';
import { AreaFrame } from '../../ui/AreaFrame.tsx';
import { EDITOR_PAGES } from './editorRoutes.tsx';
import { LIST_PAGES } from './listPage/listRoutes.tsx';
import { SETTINGS_GROUPS } from './settingsGroups.ts';
import './admin.css';

/**
 * The company's admin area (`/console/admin/…`, issue 16): its groups of settings beside a live
 * preview. Agents who open it are told it is for admins; the API refuses their edits anyway.
 */
export function AdminArea() {
  const tabs = [
    ...SETTINGS_GROUPS.map((group) => ({ to: group.path, label: t(`group_${group.path}`) })),
    ...EDITOR_PAGES.map((page) => ({ to: page.path, label: t(page.label) })),
    ...LIST_PAGES.map((page) => ({ to: page, label: t(`group_${page}`) })),
  ];
  return (
    <AreaFrame
      name="admin"
      title={t('companySettings')}
      adminsOnly={{ title: t('adminsOnlyTitle'), text: t('adminsOnly') }}
      navLabel={t('settingsGroups')}
      tabs={tabs}
    />
  );
}
