import { z } from 'zod';

/** Every successful body wraps its payload (spec §7: the first version's `data.data`). */
export const envelope = <T extends z.ZodType>(payload: T) => z.object({ data: payload });

/** A 204's body: none on the wire, which the client reads as `null`. */
export const noContentSchema = z.null();

/** Every 4xx/5xx body: a machine code, a human message and, for validation, the fields at fault. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
