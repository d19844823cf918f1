import { z } from 'zod';
import { ROLES } from '@app/shared';
import { passwordProblem } from './password-policy';

/** Request and response shapes of /api/users. No response shape has a password hash field. */

const required = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null || issue.input === '' ? `Enter your ${what}` : `Enter a valid ${what}`;

const personName = (what: string) =>
  z
    .string({ error: required(what) })
    .trim()
    .min(1, { error: `Enter your ${what}` })
    .max(100, { error: `Use at most 100 characters` });

/** Stored lower-cased, so sign-in is case-insensitive. */
const emailField = z
  .string({ error: required('e-mail') })
  .trim()
  .toLowerCase()
  .min(1, { error: 'Enter your e-mail' })
  .max(254, { error: 'Enter a valid e-mail address' })
  .pipe(z.email({ error: 'Enter a valid e-mail address' }));

const newPassword = z.string({ error: required('password') }).superRefine((password, ctx) => {
  const problem = passwordProblem(password);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const optionalText = (max: number) =>
  z
    .string({ error: 'Enter text' })
    .trim()
    .max(max, { error: `Use at most ${max} characters` })
    .optional();

const confirmation = z.string({ error: 'Repeat the password' });

/** A missing body is treated as an empty one, so each missing field gets its own message. */
const body = <T extends z.ZodType>(schema: T) => z.preprocess((v) => v ?? {}, schema);

/**
 * Checks that need several fields. `when` lets them run even if another field (say the e-mail) failed, so a form
 * shows every problem at once.
 */
function passwordPairChecks<T extends { email?: unknown; password?: unknown; password2?: unknown }>(
  schema: z.ZodType<T>,
  names: (v: T) => unknown[] = () => [],
) {
  return schema.check(
    z.superRefine<T>((v, ctx) => {
      if (typeof v.password !== 'string') return;
      const personal = [v.email, ...names(v)].filter((x): x is string => typeof x === 'string');
      const problem = passwordProblem(v.password, personal);
      if (problem && !passwordProblem(v.password)) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
      if (v.password2 !== v.password) ctx.addIssue({ code: 'custom', path: ['password2'], message: 'The passwords do not match' });
    }),
  );
}

const rawSignup = z.object({
  firstName: personName('first name'),
  lastName: personName('last name'),
  email: emailField,
  password: newPassword,
  password2: confirmation,
  /** For the accounts queue: who the person works with and why they want to contribute (both optional). */
  organisation: optionalText(200),
  reason: optionalText(2000),
});
export const signupBody = body(passwordPairChecks(rawSignup, (v) => [v.firstName, v.lastName]));

export const signinBody = body(
  z.object({
    email: emailField,
    // Not the new-password rules: an account made under older rules must still sign in.
    password: z.string({ error: required('password') }).min(1, { error: 'Enter your password' }).max(1000),
  }),
);

export const inviteBody = body(z.object({ email: emailField, firstName: personName('first name'), lastName: personName('last name') }));

export const emailOnlyBody = body(z.object({ email: emailField }));

export const resetBody = body(passwordPairChecks(z.object({ email: emailField, password: newPassword, password2: confirmation })));

export const tokenParams = z.object({ token: z.string().min(1).max(200) });

export const roleBody = body(z.object({ role: z.enum(ROLES, { error: `Choose one of: ${ROLES.join(', ')}` }) }));

export const userIdParams = z.object({ id: z.string() });

export { offsetPageQuerySchema as listQuery } from '@app/shared';

export const messageResponse = z.object({ message: z.string() });
export const tokenResponse = z.object({ token: z.string() });
/** A password sign-in: its token, which allows only enrolling a second factor when `enrolRequired` says so. */
export const signinTokenResponse = tokenResponse.extend({ enrolRequired: z.literal(true).optional() });
/** A right password of an account with a second factor: no token yet, the challenge to answer at /signin/2fa. */
export const challengeResponse = z.object({ twoFactorRequired: z.literal(true), challenge: z.string(), methods: z.array(z.string()) });
export const challengeBody = body(
  z.object({
    challenge: z.string({ error: 'Sign in again' }).min(1, { error: 'Sign in again' }).max(100),
    code: z.string({ error: 'Enter the code' }).trim().min(1, { error: 'Enter the code' }).max(40),
  }),
);

export {
  accountQueueItemSchema as queueItemResponse,
  meResponseSchema as meResponse,
  sessionItemSchema as sessionResponse,
  userListItemSchema as userResponse,
} from '@app/shared';

/** Sign-in of an account not yet activated: the message, and that a new activation link may be asked for. */
export const inactiveResponse = z.object({ message: z.string(), resend: z.boolean().optional() });
