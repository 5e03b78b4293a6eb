import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminRoutes } from '@frontdesk/protocol';
import { listAuditEntries } from '../companies/audit-log.ts';
import { quotaOf, setQuota } from '../companies/call-quota.ts';
import {
  createCategory,
  deleteCategory,
  listAdminCategories,
  reorderCategories,
  updateCategory,
} from '../companies/categories-admin.ts';
import { findForm, toForm } from '../companies/company-repository.ts';
import {
  allowedOriginsOf,
  setAllowedOrigins,
  updateCompanySettings,
} from '../companies/company-settings.ts';
import { embedSecretOf, rotateEmbedSecret } from '../companies/embed-identity.ts';
import { deleteForm, saveForm } from '../companies/forms-admin.ts';
import { checkPoint, listZones, saveZones } from '../companies/geofence-admin.ts';
import { blockGuest, listBlocks, unblockGuest } from '../companies/guest-blocks.ts';
import { bearerSecurity } from '../plugins/auth.ts';
import { companyAdmin, companyAdminChange, withCompanyEtag } from './company-admin-request.ts';
import { fromTable } from './from-table.ts';
import { limitAdminWrites } from '../plugins/rate-limits.ts';

const docs = (summary: string) => ({ tags: ['company admin'], summary, security: bearerSecurity });

/** What a read can answer besides its data. */
const READ_ERRORS = [400, 401, 403, 404] as const;
/** …and a write: a conflict with the company's state, a stale `If-Match`. */
const WRITE_ERRORS = [400, 401, 403, 404, 409, 412] as const;

/**
 * Company admin (issue 16, docs/admin-api.md): the routes of the protocol's
 * company-admin-routes.ts, for the company's own admins only (companyAdmin: 401 anonymous, 403
 * guests, agents and other companies' admins). Every write goes through changeCompany (audit
 * entry, version, `If-Match` → 412, NOTIFY to every API process) and answers the new version as
 * its ETag; this process forgets the company at once too (the version is in its public details),
 * so its next answer is already new.
 */
export const companyAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  limitAdminWrites(app);
  const { db } = app;
  const changed = (companyId: number) => app.companyDetails.forget(companyId);

  app.route({
    ...fromTable(
      adminRoutes.updateCompany,
      WRITE_ERRORS,
      docs("Change any of the company's presentation fields and name; null resets a field"),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { version } = await updateCompanySettings(
        db,
        await companyAdminChange(request, id),
        request.body,
      );
      changed(id);
      withCompanyEtag(reply, version);
      return { data: await app.companyDetails.get(id, new Date()) };
    },
  });

  // Categories

  app.route({
    ...fromTable(
      adminRoutes.companyCategories,
      READ_ERRORS,
      docs('The categories, in order, with their colours and agents'),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await listAdminCategories(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(adminRoutes.createCategory, WRITE_ERRORS, docs('Add a category')),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { result, version } = await createCategory(
        db,
        await companyAdminChange(request, id),
        request.body,
      );
      changed(id);
      return withCompanyEtag(reply, version).code(201).send({ data: result });
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.updateCategory,
      WRITE_ERRORS,
      docs("Change a category's name, colours, position or agents"),
    ),
    handler: async (request, reply) => {
      const { id, categoryId } = request.params;
      const { result, version } = await updateCategory(
        db,
        await companyAdminChange(request, id),
        categoryId,
        request.body,
      );
      changed(id);
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.reorderCategories,
      WRITE_ERRORS,
      docs('Put the categories in an order'),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { result, version } = await reorderCategories(
        db,
        await companyAdminChange(request, id),
        request.body.categoryIds,
      );
      changed(id);
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.deleteCategory,
      WRITE_ERRORS,
      docs('Delete a category without live calls (its reports keep it)'),
    ),
    handler: async (request, reply) => {
      const { id, categoryId } = request.params;
      const { version } = await deleteCategory(
        db,
        await companyAdminChange(request, id),
        categoryId,
      );
      changed(id);
      return withCompanyEtag(reply, version).code(204).send(null);
    },
  });

  // Forms

  app.route({
    ...fromTable(adminRoutes.companyForm, READ_ERRORS, docs('The welcome or rating form, or null')),
    handler: async (request) => {
      const { id, kind } = request.params;
      await companyAdmin(request, id);
      return { data: toForm(await findForm(db, id, kind)) };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.saveCompanyForm,
      WRITE_ERRORS,
      docs('Replace the welcome or rating form (a new id; old submissions keep theirs)'),
    ),
    handler: async (request, reply) => {
      const { id, kind } = request.params;
      const { result, version } = await saveForm(
        db,
        await companyAdminChange(request, id),
        kind,
        request.body,
      );
      changed(id);
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  app.route({
    ...fromTable(adminRoutes.deleteCompanyForm, WRITE_ERRORS, docs('Stop asking the form')),
    handler: async (request, reply) => {
      const { id, kind } = request.params;
      const { version } = await deleteForm(db, await companyAdminChange(request, id), kind);
      changed(id);
      return withCompanyEtag(reply, version).code(204).send(null);
    },
  });

  // Geofence

  app.route({
    ...fromTable(
      adminRoutes.companyGeofence,
      READ_ERRORS,
      docs('The named zones of the service area'),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await listZones(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.saveCompanyGeofence,
      WRITE_ERRORS,
      docs('Replace the zones (none: serve everywhere)'),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { result, version } = await saveZones(
        db,
        await companyAdminChange(request, id),
        request.body.zones,
      );
      changed(id);
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.checkGeofencePoint,
      READ_ERRORS,
      docs('Is this point inside the service area, and in which zones?'),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await checkPoint(db, request.params.id, request.body) };
    },
  });

  // Block list

  app.route({
    ...fromTable(adminRoutes.companyBlocks, READ_ERRORS, docs('The block list, newest first')),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await listBlocks(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.blockGuest,
      WRITE_ERRORS,
      docs("Block the guest of one of the company's calls, or a fingerprint"),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { result, version } = await blockGuest(
        db,
        await companyAdminChange(request, id),
        request.body,
        app.config.secrets.guestFingerprint,
      );
      changed(id);
      return withCompanyEtag(reply, version)
        .code(result.created ? 201 : 200)
        .send({ data: result.block });
    },
  });

  app.route({
    ...fromTable(adminRoutes.unblockGuest, WRITE_ERRORS, docs('Remove an entry of the block list')),
    handler: async (request, reply) => {
      const { id, blockId } = request.params;
      const { version } = await unblockGuest(db, await companyAdminChange(request, id), blockId);
      changed(id);
      return withCompanyEtag(reply, version).code(204).send(null);
    },
  });

  // Quota

  app.route({
    ...fromTable(
      adminRoutes.companyQuota,
      READ_ERRORS,
      docs("The monthly call quota and this month's use"),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await quotaOf(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.saveCompanyQuota,
      WRITE_ERRORS,
      docs('Set the monthly quota, or lift it'),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { version } = await setQuota(
        db,
        await companyAdminChange(request, id),
        request.body.monthlyCallQuota,
      );
      changed(id);
      withCompanyEtag(reply, version);
      return { data: await quotaOf(db, id) };
    },
  });

  // Allowed origins

  app.route({
    ...fromTable(
      adminRoutes.companyAllowedOrigins,
      READ_ERRORS,
      docs('The sites that may frame the guest page'),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: { allowedOrigins: await allowedOriginsOf(db, request.params.id) } };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.saveCompanyAllowedOrigins,
      WRITE_ERRORS,
      docs('Replace the sites that may frame the guest page (CSP frame-ancestors)'),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { result, version } = await setAllowedOrigins(
        db,
        await companyAdminChange(request, id),
        request.body.allowedOrigins,
      );
      changed(id);
      withCompanyEtag(reply, version);
      return { data: { allowedOrigins: result } };
    },
  });

  // Embed secret (decision 0021): shown to the company's admins only, never in public details.

  app.route({
    ...fromTable(
      adminRoutes.companyEmbedSecret,
      READ_ERRORS,
      docs("The key the company's site signs identity tokens with"),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await embedSecretOf(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.rotateCompanyEmbedSecret,
      WRITE_ERRORS,
      docs('Make a new embed secret; tokens signed with the old one stop verifying'),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const { result, version } = await rotateEmbedSecret(
        db,
        await companyAdminChange(request, id),
      );
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  // Audit log

  app.route({
    ...fromTable(
      adminRoutes.companyAudit,
      READ_ERRORS,
      docs('Who changed what and when, newest first'),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await listAuditEntries(db, request.params.id, request.query) };
    },
  });
};
