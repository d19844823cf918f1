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
});
export const signupBody = body(passwordPairChecks(rawSignup, (v) => [v.firstName, v.lastName]));

export const signinBody = body(
  z.object({
    email: emailField,
    // Not the new-password rules: an account made under older rules must still sign in.
    password: z.string({ error: required('password') }).min(1, { error: 'Enter your password' }).max(1000),
  }),
);

export const emailOnlyBody = body(z.object({ email: emailField }));

export const resetBody = body(passwordPairChecks(z.object({ email: emailField, password: newPassword, password2: confirmation })));

export const tokenParams = z.object({ token: z.string().min(1).max(200) });

export const roleBody = body(z.object({ role: z.enum(ROLES, { error: `Choose one of: ${ROLES.join(', ')}` }) }));

export const userIdParams = z.object({ id: z.string() });

export { offsetPageQuerySchema as listQuery } from '@app/shared';

export const messageResponse = z.object({ message: z.string() });
export const tokenResponse = z.object({ token: z.string() });

export { meResponseSchema as meResponse, userListItemSchema as userResponse } from '@app/shared';

/** Sign-in of an account not yet activated: the message, and that a new activation link may be asked for. */
export const inactiveResponse = z.object({ message: z.string(), resend: z.boolean().optional() });
