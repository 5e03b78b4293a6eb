import { z } from 'zod';

/** `POST /monitoring`: what the tunnel did with an envelope of the browser error-reporting SDK. */
export const monitoringReceiptSchema = z.object({ outcome: z.enum(['forwarded', 'stored']) });
