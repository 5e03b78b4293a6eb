import { Link } from 'react-router';
import { t } from '../../i18n/messages.ts';
import { AreaFrame } from '../../ui/AreaFrame.tsx';
import { REPORT_PAGES } from './reportRoutes.tsx';
import './reports.css';

/**
 * The company's reports (`/console/reports/…`, issue 17): its figures, its calls one by one and
 * the live wallboard. Admins only: an agent who opens it is told so, and loads none of its pages
 * (the API refuses them the data anyway).
 */
export function ReportsArea() {
  return (
    <AreaFrame
      name="reports"
      title={t('reportsTitle')}
      adminsOnly={{ title: t('reportsAdminsOnlyTitle'), text: t('reportsAdminsOnly') }}
      navLabel={t('reportsPages')}
      tabs={REPORT_PAGES.map((page) => ({ to: page.path, label: t(page.label), end: page.end }))}
      links={<Link to="/admin">{t('companySettings')}</Link>}
    />
  );
}
