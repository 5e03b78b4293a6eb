import { z } from 'zod';
import {
  adminCategorySchema,
  allowedOriginsSchema,
  auditPageSchema,
  auditQuerySchema,
  blockBodySchema,
  blockParamsSchema,
  categoryCreateBodySchema,
  categoryOrderBodySchema,
  categoryParamsSchema,
  categoryUpdateBodySchema,
  companyFormParamsSchema,
  companyUpdateBodySchema,
  formBodySchema,
  geofencePointBodySchema,
  geofencePointResultSchema,
  geofenceZoneSchema,
  geofenceZonesBodySchema,
  guestBlockSchema,
  quotaBodySchema,
  quotaSchema,
} from './company-admin.ts';
import { companyDetailsSchema, companyParamsSchema } from './company.ts';
import { envelope, noContentSchema } from './envelope.ts';
import { embedSecretSchema } from './embed.ts';
import { formSchema } from './forms.ts';
import type { Route } from './routes.ts';

/**
 * Company admin (issue 16, docs/admin-api.md): settings, categories, forms, geofence zones, block
 * list, quota, allowed origins and the audit log; the company's own admins only. Every write
 * takes an optional `If-Match` (the client's `ifMatch`: 412 `stale_version` when the company
 * changed since) and answers the company's new version as its `ETag`. Part of `adminRoutes`.
 */
export const companyAdminRoutes = {
  /** Any subset of the presentation fields and `name`; answers the new details (and ETag). */
  updateCompany: {
    method: 'PATCH',
    path: '/company/:id',
    params: companyParamsSchema,
    body: companyUpdateBodySchema,
    response: envelope(companyDetailsSchema),
  },

  companyCategories: {
    method: 'GET',
    path: '/company/:id/categories',
    params: companyParamsSchema,
    response: envelope(z.array(adminCategorySchema)),
  },
  createCategory: {
    method: 'POST',
    path: '/company/:id/categories',
    params: companyParamsSchema,
    body: categoryCreateBodySchema,
    response: envelope(adminCategorySchema),
    statuses: [201],
  },
  updateCategory: {
    method: 'PATCH',
    path: '/company/:id/categories/:categoryId',
    params: categoryParamsSchema,
    body: categoryUpdateBodySchema,
    response: envelope(adminCategorySchema),
  },
  /** Puts every live category in the order given; answers them in it. */
  reorderCategories: {
    method: 'PUT',
    path: '/company/:id/categories/order',
    params: companyParamsSchema,
    body: categoryOrderBodySchema,
    response: envelope(z.array(adminCategorySchema)),
  },
  /** 409 `category_has_live_calls` while a call waits, runs or is being handed to it. */
  deleteCategory: {
    method: 'DELETE',
    path: '/company/:id/categories/:categoryId',
    params: categoryParamsSchema,
    response: noContentSchema,
    statuses: [204],
  },

  /** The company's welcome or rating form; `null` when it has none. */
  companyForm: {
    method: 'GET',
    path: '/company/:id/forms/:kind',
    params: companyFormParamsSchema,
    response: envelope(formSchema.nullable()),
  },
  /** Replaces the form (it gets a new id; old submissions keep theirs). */
  saveCompanyForm: {
    method: 'PUT',
    path: '/company/:id/forms/:kind',
    params: companyFormParamsSchema,
    body: formBodySchema,
    response: envelope(formSchema),
  },
  deleteCompanyForm: {
    method: 'DELETE',
    path: '/company/:id/forms/:kind',
    params: companyFormParamsSchema,
    response: noContentSchema,
    statuses: [204],
  },

  companyGeofence: {
    method: 'GET',
    path: '/company/:id/geofence',
    params: companyParamsSchema,
    response: envelope(z.array(geofenceZoneSchema)),
  },
  saveCompanyGeofence: {
    method: 'PUT',
    path: '/company/:id/geofence',
    params: companyParamsSchema,
    body: geofenceZonesBodySchema,
    response: envelope(z.array(geofenceZoneSchema)),
  },
  /** Which of the saved zones hold the point (the admin's "is this point inside?"). */
  checkGeofencePoint: {
    method: 'POST',
    path: '/company/:id/geofence/check-point',
    params: companyParamsSchema,
    body: geofencePointBodySchema,
    response: envelope(geofencePointResultSchema),
  },

  companyBlocks: {
    method: 'GET',
    path: '/company/:id/blocks',
    params: companyParamsSchema,
    response: envelope(z.array(guestBlockSchema)),
  },
  /** 201 for a new block, 200 when the fingerprint was blocked already (its reason updated). */
  blockGuest: {
    method: 'POST',
    path: '/company/:id/blocks',
    params: companyParamsSchema,
    body: blockBodySchema,
    response: envelope(guestBlockSchema),
    statuses: [200, 201],
  },
  unblockGuest: {
    method: 'DELETE',
    path: '/company/:id/blocks/:blockId',
    params: blockParamsSchema,
    response: noContentSchema,
    statuses: [204],
  },

  companyQuota: {
    method: 'GET',
    path: '/company/:id/quota',
    params: companyParamsSchema,
    response: envelope(quotaSchema),
  },
  saveCompanyQuota: {
    method: 'PUT',
    path: '/company/:id/quota',
    params: companyParamsSchema,
    body: quotaBodySchema,
    response: envelope(quotaSchema),
  },

  companyAllowedOrigins: {
    method: 'GET',
    path: '/company/:id/allowed-origins',
    params: companyParamsSchema,
    response: envelope(allowedOriginsSchema),
  },
  saveCompanyAllowedOrigins: {
    method: 'PUT',
    path: '/company/:id/allowed-origins',
    params: companyParamsSchema,
    body: allowedOriginsSchema,
    response: envelope(allowedOriginsSchema),
  },

  /** The key that signs the embedding site's identity tokens (decision 0021). */
  companyEmbedSecret: {
    method: 'GET',
    path: '/company/:id/embed-secret',
    params: companyParamsSchema,
    response: envelope(embedSecretSchema),
  },
  /** A new key; tokens signed with the old one stop verifying at once. */
  rotateCompanyEmbedSecret: {
    method: 'POST',
    path: '/company/:id/embed-secret',
    params: companyParamsSchema,
    response: envelope(embedSecretSchema),
  },

  /** Who changed what and when, newest first. */
  companyAudit: {
    method: 'GET',
    path: '/company/:id/audit',
    params: companyParamsSchema,
    query: auditQuerySchema,
    response: envelope(auditPageSchema),
  },
} as const satisfies Record<string, Route>;
