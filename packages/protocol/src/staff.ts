import { z } from 'zod';
import { guestRoomSchema, serviceCredentialsSchema } from './guest.ts';
import { recordIdSchema } from './ids.ts';

/** Agents take calls; admins also manage their company (ARCHITECTURE: console). */
export const staffRoleSchema = z.enum(['agent', 'admin']);
export type StaffRole = z.infer<typeof staffRoleSchema>;

/** `POST /auth/login`. */
export const staffLoginBodySchema = z.strictObject({
  email: z.email().max(320),
  password: z.string().min(1).max(200),
});

export const staffMemberSchema = z.object({
  id: recordIdSchema,
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  companyId: recordIdSchema,
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffLoginSchema = serviceCredentialsSchema.extend({
  access_token: z.string(),
  user: staffMemberSchema,
  /** The company's room and its category rooms, with their password (docs/protocol.md). */
  rooms: z.array(guestRoomSchema),
});
export type StaffLogin = z.infer<typeof staffLoginSchema>;
