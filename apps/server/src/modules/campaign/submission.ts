import { z } from 'zod';

/** Bounds of a campaign letter (abuse limits). */
export const MESSAGE_MIN_CHARS = 20;
export const MESSAGE_MAX_CHARS = 10_000;

const text = (label: string, max: number) =>
  z
    .string({ error: `Enter your ${label}` })
    .trim()
    .min(1, { error: `Enter your ${label}` })
    .max(max, { error: `Your ${label} must be at most ${max} characters` })
    // Line breaks or control characters in a name or address would break the letter's layout and mail headers.
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { error: `Your ${label} must be on one line` });

const choice = (label: string) =>
  z.string({ error: `Choose a ${label}` }).trim().min(1, { error: `Choose a ${label}` }).max(200, { error: `Choose a ${label} from the list` });

/**
 * POST /reports body. `authorityEmail` is accepted for compatibility but never used: the
 * recipient's address always comes from the directory.
 */
export const submissionSchema = z.object({
  email: z
    .string({ error: 'Enter your e-mail address' })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'Enter a valid e-mail address' }).max(254, { error: 'Enter a valid e-mail address' })),
  firstName: text('first name', 100),
  lastName: text('last name', 100),
  country: choice('country'),
  province: choice('province or state'),
  district: choice('district'),
  city: text('city', 100),
  streetName: text('street address', 200),
  zipcode: text('postal code', 20),
  authorityEmail: z.unknown().optional(),
  message: z
    .string({ error: 'Write your letter' })
    .trim()
    .min(MESSAGE_MIN_CHARS, { error: `The letter must be at least ${MESSAGE_MIN_CHARS} characters` })
    .max(MESSAGE_MAX_CHARS, { error: `The letter must be at most ${MESSAGE_MAX_CHARS.toLocaleString('en')} characters` }),
});
export type Submission = z.infer<typeof submissionSchema>;

/** Normalised letter text for duplicate detection: the same words with different spacing are the same letter. */
export function normaliseForHash(message: string): string {
  return message.replace(/\s+/g, ' ').trim().toLowerCase();
}
