import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { auditKeyProblem, printable, productionSecretProblems } from './config-secrets';
import { fileMadeOnce } from './data-dir-file';

/**
 * All configuration comes from environment variables, validated once at start. A bad value stops the start with a
 * message naming the variable (ConfigError), never a stack trace.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

const positiveInt = (max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .refine((n) => n > 0 && n <= max, { error: `must be between 1 and ${max}` });

const megabytes = positiveInt(100_000).transform((n) => n * 1024 * 1024);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  PORT: positiveInt(65535).default(3000),
  /** Default: every interface in production (behind a proxy or in a container), 127.0.0.1 elsewhere (loadConfig). */
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1, { error: 'must not be empty' }).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  SITE_NAME: z.string().min(1).max(100).default('Amhara Genocide Watch'),
  HASHTAG_WORD: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/, { error: 'must be letters, digits or _ (it follows #Stop)' })
    .default('AmharaGenocide'),
  CONTACT_EMAIL: z.email({ error: 'must be an e-mail address' }).default('contact@example.org'),
  SOCIAL_URL: url(['http:', 'https:']).default('https://x.com/'),
  MERCHANDISE_URL: url(['http:', 'https:']).optional(),
  RELATED_SITES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return [] as { label: string; url: string }[];
      const out: { label: string; url: string }[] = [];
      for (const part of v.split(',')) {
        const [label, link] = part.split('|').map((s) => s.trim());
        if (!label || !link || !/^https?:\/\//.test(link)) {
          ctx.addIssue({ code: 'custom', message: 'must be "Label|https://url" entries separated by commas' });
          return z.NEVER;
        }
        out.push({ label, url: link });
      }
      return out;
    }),
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  /** The absolute lifetime of every session (and of its token). */
  JWT_TTL_HOURS: positiveInt(24 * 90).default(24 * 7),
  /** A staff (admin, super) session not used for this long ends. */
  STAFF_IDLE_MINUTES: positiveInt(24 * 60).default(30),
  /** Who must sign in with a second factor: staff (admin, super), every account, or nobody (development and tests). */
  REQUIRE_TWO_FACTOR: z.enum(['staff', 'all', 'off'], { error: 'must be staff, all or off' }).default('staff'),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  /** Mails written to DATA_DIR/outbox instead of sent: the default outside production, a choice made on purpose in it. */
  MAIL_OUTBOX: bool.optional(),
  MAIL_FROM: z.string().min(3).optional(),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  /** Key prefix of the rate-limit counters in Redis (several sites, or test runs, can share one Redis). */
  RATE_LIMIT_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, { error: 'must be 1-64 letters, digits, : _ or -' }).default('rl:'),
  /** Sign-ups one address may make per hour: a guard against mass account creation (a test suite raises it). */
  SIGNUP_LIMIT_PER_HOUR: positiveInt(10_000).default(10),
  STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  // zod 4: a default is the parsed output (bytes), not an input run through the transform.
  MAX_IMAGE_MB: megabytes.default(20 * 1024 * 1024),
  MAX_VIDEO_MB: megabytes.default(1024 * 1024 * 1024),
  /** Below this much free space where files are written (media, staging), /ready says storage is failing; 0: no floor. */
  STORAGE_MIN_FREE_MB: z
    .string()
    .regex(/^\d{1,7}$/, { error: 'must be a whole number of megabytes (0 for no floor)' })
    .transform((v) => Number(v) * 1024 * 1024)
    .default(512 * 1024 * 1024),
  CACHE_MAX_MB: positiveInt(10_000).default(32),
  /**
   * The longest any cached answer (and any record kept serialised, any list position) is used, whatever happens: a
   * change lost on its way between processes is then seen within this time at worst.
   */
  CACHE_MAX_AGE_SECONDS: positiveInt(86_400).default(300),
  /**
   * Connections this process keeps to PostgreSQL. Default: twice the CPUs plus one (PostgreSQL's own rule of thumb):
   * more queries at once than cores only queue inside the server, and each connection is a server process of its own
   * with its own memory. As many more, opened as searches need them, serve the search's statements planned once (db/index.ts).
   */
  DATABASE_POOL_SIZE: positiveInt(1000).optional(),
  /**
   * Searches (and statistics with words) computed at once by this process; more wait up to SEARCH_QUEUE_MS for a turn,
   * then get 503 with Retry-After. Default: one more than the CPUs (collection/limiter.ts).
   */
  SEARCH_CONCURRENCY: positiveInt(1000).optional(),
  SEARCH_QUEUE_MS: positiveInt(60_000).default(1000),
  CAMPAIGN_SCRUB_DAYS: positiveInt(3650).default(28),
  SAMPLE_DATA: bool.optional(),
  INITIAL_SUPER_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  INITIAL_SUPER_PASSWORD: z.string().min(10, { error: 'must be at least 10 characters' }).optional(),
  TRUST_PROXY: bool.default(false),
  /** The site's .onion address (without scheme): pages then send `Onion-Location` to the Tor Browser (docs/testimony.md). */
  ONION_ADDRESS: z.string().regex(/^[a-z2-7]{56}\.onion$/, { error: 'must be a v3 onion address such as abc...xyz.onion' }).optional(),
  /** A reviewer's unlocked intake key is forgotten after this many minutes without use. */
  TESTIMONY_UNLOCK_IDLE_MINUTES: positiveInt(24 * 60).default(30),
  /** Largest file of a testimony, and of all its files together, in megabytes. */
  TESTIMONY_MAX_FILE_MB: positiveInt(4096).default(200),
  TESTIMONY_MAX_TOTAL_MB: positiveInt(16384).default(500),
  /** Bearer token that opens /metrics (Prometheus); without it /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** One info line per answer sent from the cache (request id, method, URL, status); off by default for throughput. */
  LOG_CACHED_HITS: bool.default(false),
  /** Every this many audit entries, a signed checkpoint of the chain's head (and at least daily). */
  AUDIT_CHECKPOINT_EVERY: positiveInt(1_000_000).default(100),
  /** Ed25519 private key (PEM) that signs audit checkpoints; generated into DATA_DIR when not set. */
  AUDIT_SIGNING_KEY: z.string().includes('PRIVATE KEY', { error: 'must be a PEM private key' }).optional(),
  /** An RFC 3161 time-stamping authority that time-stamps every audit checkpoint. */
  TSA_URL: url(['http:', 'https:']).optional(),
  /** A PEM bundle of the time-stamping authorities trusted: every token's certificate must chain to one of them. */
  TSA_CA_FILE: z
    .string()
    .optional()
    .transform((file, ctx) => {
      if (!file) return undefined;
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
        return z.NEVER;
      }
      if (!text.includes('-----BEGIN CERTIFICATE-----')) {
        ctx.addIssue({ code: 'custom', message: 'must be a file of PEM certificates' });
        return z.NEVER;
      }
      return text;
    }),
  /** Captures of cited links (snapshot, screenshot, headers) by a background job in headless Chromium. */
  CAPTURE_ENABLED: bool.default(true),
  CAPTURE_BROWSER_PATH: z.string().min(1).default('/usr/bin/chromium'),
  /** Largest page (bytes received) and largest snapshot or screenshot kept. */
  CAPTURE_MAX_MB: megabytes.default(50 * 1024 * 1024),
  CAPTURE_TIMEOUT_SECONDS: positiveInt(600).default(60),
  /** Capture https pages whose certificate the browser refuses (expired, self-signed); their chain is kept as shown. */
  CAPTURE_ACCEPT_INVALID_TLS: bool.default(false),
  /** host or host:port admitted although its address is not public (a known server on the private network). */
  CAPTURE_ALLOW_HOSTS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const hosts = (v ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
      const bad = hosts.find((h) => !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+|[0-9a-f:]+)(:\d{1,5})?$/.test(h));
      if (bad) {
        ctx.addIssue({ code: 'custom', message: `must be host or host:port entries separated by commas (${bad})` });
        return z.NEVER;
      }
      return hosts;
    }),
});

type Env = z.infer<typeof envSchema>;

/** Every variable the configuration reads (the deploy files' test checks theirs against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface Config extends Omit<Env, 'HOST'> {
  HOST: string;
  /** Mails go to the outbox folder (no SMTP_URL): they are written there, never sent. */
  mailOutbox: boolean;
  dataDir: string;
  jwtSecret: string;
  publicUrl: string;
  /** Sample content is inserted into an empty database outside production unless SAMPLE_DATA=false. */
  sampleData: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates configuration. `env` defaults to process.env; tests pass their own. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", so `FOO= npm start` falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const variable = String(i.path[0]);
        const value = cleaned[variable];
        return `${variable}: ${i.message} (got ${value === undefined ? 'nothing' : printable(variable, value)})`;
      }),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.SMTP_URL && e.MAIL_OUTBOX) problems.push('MAIL_OUTBOX: set it or SMTP_URL, not both');
  if (e.STORAGE === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: must be set when STORAGE=s3');
  if (Boolean(e.INITIAL_SUPER_EMAIL) !== Boolean(e.INITIAL_SUPER_PASSWORD)) {
    problems.push('INITIAL_SUPER_EMAIL: set it together with INITIAL_SUPER_PASSWORD, or neither');
  }
  if (e.NODE_ENV === 'production') {
    if (!e.PUBLIC_URL) problems.push('PUBLIC_URL: must be set when NODE_ENV=production');
    // Mails written to a folder nobody reads in production are lost mails (password resets, confirmations).
    if (!e.SMTP_URL && !e.MAIL_OUTBOX) {
      problems.push('SMTP_URL: must be set when NODE_ENV=production (or MAIL_OUTBOX=true to keep mails in DATA_DIR/outbox unsent)');
    }
    problems.push(...productionSecretProblems(e));
    if (e.REQUIRE_TWO_FACTOR === 'off') problems.push('REQUIRE_TWO_FACTOR: off is for development and tests, not production (use staff or all)');
  }
  // A placeholder key is reported as such above; any other key that cannot sign stops every environment.
  if (!problems.some((p) => p.startsWith('AUDIT_SIGNING_KEY'))) {
    const keyProblem = auditKeyProblem(e.AUDIT_SIGNING_KEY);
    if (keyProblem) problems.push(keyProblem);
  }
  if (problems.length) throw new ConfigError(problems);

  const dataDir = dataDirOf(cleaned);
  return {
    ...e,
    // The development default prints the sample super's password: only this machine should reach it.
    HOST: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    mailOutbox: !e.SMTP_URL,
    dataDir,
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    sampleData: e.SAMPLE_DATA ?? e.NODE_ENV !== 'production',
  };
}

/** The data folder's absolute path (DATA_DIR, default ./data), known before the configuration is read or checked. */
export function dataDirOf(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(env.DATA_DIR || './data');
}

/** A random secret generated once and kept in the data folder, so tokens survive restarts without a hard-coded key. */
function persistentSecret(dataDir: string): string {
  return fileMadeOnce(path.join(dataDir, 'jwt-secret'), () => `${randomBytes(48).toString('base64url')}\n`).trim();
}
