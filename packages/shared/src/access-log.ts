import { z } from 'zod';

/** One read of a private record or a withheld testimony by an account (GET /access-log, /api/users/access-log). */
export const accessLogEntrySchema = z.object({
  at: z.string(),
  userId: z.string(),
  userName: z.string().nullable(),
  sessionId: z.string().nullable(),
  recordId: z.string(),
  category: z.string(),
  kind: z.string(),
});
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;
