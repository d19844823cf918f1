import { createPrivateKey } from 'node:crypto';

/**
 * What configuration may say about secrets: which values are never printed, which are refused in production
 * (.env.example's placeholders and weak ones), and whether the audit key can be read at all.
 */

/** Variables whose value is a secret through and through: a message says how long it is, never what it is. */
const SECRET_VARIABLES = new Set(['JWT_SECRET', 'AUDIT_SIGNING_KEY', 'INITIAL_SUPER_PASSWORD', 'S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID', 'METRICS_TOKEN']);

/**
 * A value as a message may show it: secrets by their length only, and the password (or token) of a URL's user part
 * masked, even in a value too malformed to parse as a URL.
 */
export function printable(variable: string, value: string): string {
  if (SECRET_VARIABLES.has(variable)) return `a value of ${value.length} characters`;
  return JSON.stringify(withoutCredentials(value));
}

/** `scheme://user:password@host` -> `scheme://user:***@host`; a user part without a colon (a bare token) -> `***`. */
export function withoutCredentials(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  const slashes = value.indexOf('//');
  const start = slashes >= 0 && slashes < at ? slashes + 2 : value.indexOf(':') + 1;
  const userPart = value.slice(start, at);
  if (userPart === '') return value;
  const colon = userPart.indexOf(':');
  const masked = colon >= 0 ? `${userPart.slice(0, colon)}:***` : '***';
  return `${value.slice(0, start)}${masked}${value.slice(at)}`;
}

/** The placeholders .env.example ships with, by variable (DATABASE_URL's password comes from POSTGRES_PASSWORD). */
const PLACEHOLDERS = {
  JWT_SECRET: 'change-this-to-a-long-random-secret-of-32-characters-or-more',
  POSTGRES_PASSWORD: 'change-this-database-password',
  MINIO_ROOT_PASSWORD: 'change-this-storage-password',
  AUDIT_SIGNING_KEY_BODY: 'MC4CAQAwBQYDK2VwBCIEIChangeThisKeyChangeThisKeyChangeThisKe',
};

/** Words that mark a value as a placeholder, wherever it was copied from. */
const PLACEHOLDER_WORDS = /change[-_ ]?(this|me)|placeholder|example|your[-_ ]?(secret|token|password)/i;

/** A secret with fewer different characters than this is a pattern, not a random string (e.g. 32 times "a"). */
const MIN_DISTINCT_CHARACTERS = 12;

const HOW_TO_MAKE = 'make a new one with `openssl rand -base64 36`';

function weakness(value: string): string | null {
  if (PLACEHOLDER_WORDS.test(value)) return 'is a placeholder';
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return `has fewer than ${MIN_DISTINCT_CHARACTERS} different characters`;
  return null;
}

interface SecretSettings {
  JWT_SECRET?: string;
  METRICS_TOKEN?: string;
  DATABASE_URL?: string;
  S3_SECRET_ACCESS_KEY?: string;
  AUDIT_SIGNING_KEY?: string;
}

/** Production refuses placeholders and weak secrets; each problem names its variable and what to do. */
export function productionSecretProblems(env: SecretSettings): string[] {
  const problems: string[] = [];
  for (const variable of ['JWT_SECRET', 'METRICS_TOKEN'] as const) {
    const value = env[variable];
    const weak = value === undefined ? null : weakness(value);
    if (weak) problems.push(`${variable}: ${weak} (${value === PLACEHOLDERS.JWT_SECRET ? "it is .env.example's" : 'not a random string'}); ${HOW_TO_MAKE}`);
  }
  if (env.DATABASE_URL && databasePassword(env.DATABASE_URL) === PLACEHOLDERS.POSTGRES_PASSWORD) {
    problems.push("DATABASE_URL: its password is .env.example's placeholder (POSTGRES_PASSWORD); set a new one");
  }
  if (env.S3_SECRET_ACCESS_KEY === PLACEHOLDERS.MINIO_ROOT_PASSWORD) {
    problems.push("S3_SECRET_ACCESS_KEY: is .env.example's placeholder (MINIO_ROOT_PASSWORD); set a new one");
  }
  if (env.AUDIT_SIGNING_KEY?.replace(/\s/g, '').includes(PLACEHOLDERS.AUDIT_SIGNING_KEY_BODY)) {
    problems.push("AUDIT_SIGNING_KEY: is .env.example's placeholder; make a key with `openssl genpkey -algorithm ed25519`");
  }
  return problems;
}

function databasePassword(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return null;
  }
}

/** Whether AUDIT_SIGNING_KEY can sign: an Ed25519 private key in PEM. Null when it can; the problem otherwise. */
export function auditKeyProblem(pem: string | undefined): string | null {
  if (pem === undefined) return null;
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') return `AUDIT_SIGNING_KEY: is a ${key.asymmetricKeyType} key; it must be an Ed25519 private key (openssl genpkey -algorithm ed25519)`;
    return null;
  } catch {
    return 'AUDIT_SIGNING_KEY: cannot be read as a PEM private key (paste the whole key in double quotes, line breaks kept; make one with openssl genpkey -algorithm ed25519)';
  }
}
