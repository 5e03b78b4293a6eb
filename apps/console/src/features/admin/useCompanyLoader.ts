import { useCallback } from 'react';
import { routes, type CompanyDetails } from '@frontdesk/protocol';
import { useAppSelector } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';

/**
 * `GET /company/:id` of the admin's own company: the company as guests get it, with the version
 * an edit names (`If-Match`).
 */
export function useCompanyLoader() {
  const { api } = useServices();
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  return useCallback(async (): Promise<CompanyDetails> => {
    if (companyId === undefined) throw new Error(t('sessionEnded'));
    const { data } = await api(routes.company, { params: { id: String(companyId) } });
    return data;
  }, [api, companyId]);
}
