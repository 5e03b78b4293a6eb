import type { StaffAdminEntry } from '@frontdesk/protocol';

/**
 * A member of staff as `GET /company/:id/staff` lists them: agent Ada of company 12, active,
 * serving category 40, with `changes`.
 */
export const staffEntry = (changes: Partial<StaffAdminEntry> = {}): StaffAdminEntry => ({
  id: 1,
  email: 'ada@frontdesk.demo',
  name: 'Ada Agent',
  role: 'agent',
  active: true,
  oneTimePasswordExpiresAt: null,
  categoryIds: [40],
  assignmentGroupIds: [],
  createdAt: '2026-01-05T10:00:00.000Z',
  ...changes,
});
