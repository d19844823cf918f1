import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, parseDocument } from 'yaml';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/config';

/**
 * The container files (Dockerfile, compose.yaml), checked without Docker: no daemon or image registry is reachable in CI. The compose
 * file is read as YAML the way Compose reads it (anchors, merge keys), its variables filled from .env.example, and
 * what the site would receive is run through the site's own configuration check.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** .env.example as Compose reads it: KEY=value lines, double-quoted values may span lines. */
function readEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const pattern = /^([A-Z0-9_]+)=(?:"([^"]*)"|(.*))$/gm;
  for (const m of text.matchAll(pattern)) out[m[1]!] = m[2] ?? m[3]!.trim();
  return out;
}

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}; $$ is a literal $. */
function interpolate(value: string, vars: Record<string, string>, missing: string[]): string {
  return value.replace(/\$\$|\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (whole === '$$') return '$';
    const v = vars[name!];
    if (v !== undefined && v !== '') return v;
    if (op === ':-') return arg ?? '';
    missing.push(name!);
    return '';
  });
}

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  profiles?: string[];
  volumes?: string[];
};

const compose = parseYaml(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const exampleEnv = readEnvFile(read('.env.example'));

describe('compose.yaml', () => {
  it('is valid YAML with no duplicate keys', () => {
    const doc = parseDocument(read('compose.yaml'), { merge: true, uniqueKeys: true });
    expect(doc.errors).toEqual([]);
  });

  it('runs two site replicas, a worker, PostgreSQL, Redis, an S3 store, a mail catcher for development and Caddy', () => {
    const services = compose.services;
    expect(Object.keys(services).sort()).toEqual(['caddy', 'create-bucket', 'mailpit', 'minio', 'postgres', 'redis', 'site', 'tor', 'worker']);
    expect(services.tor!.profiles).toEqual(['tor']);
    expect(services.site!.deploy?.replicas).toBe(2);
    expect(services.site!.build).toBe('.');
    expect(services.worker!.image).toBe(services.site!.image);
    expect(services.worker!.command).toContain('apps/server/dist/worker.js');
    expect(services.mailpit!.profiles).toEqual(['dev']);
    // Nothing but the proxy is published beyond the machine (Mailpit's page only on loopback).
    for (const [name, service] of Object.entries(services)) {
      const ports = (service as { ports?: string[] }).ports ?? [];
      if (name !== 'caddy') for (const port of ports) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it('has a health check on every long-running service but the worker, and starts the site after what it needs', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'create-bucket') continue;
      if (name === 'worker') expect(service.healthcheck?.disable).toBe(true);
      else expect(service.healthcheck?.test?.length, `${name} has no health check`).toBeGreaterThan(0);
    }
    expect(compose.services.site!.healthcheck!.test!.join(' ')).toContain('/ready');
    for (const dependant of ['site', 'worker']) {
      expect(compose.services[dependant]!.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        minio: { condition: 'service_healthy' },
        'create-bucket': { condition: 'service_completed_successfully' },
      });
    }
    expect(compose.services.caddy!.depends_on).toEqual({ site: { condition: 'service_healthy' } });
  });

  it("gives the site only variables its configuration knows; it refuses .env.example's placeholders and starts with real secrets", () => {
    const environment = compose.services.site!.environment!;
    expect(compose.services.worker!.environment).toEqual(environment);
    expect(Object.keys(environment).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    const resolve = (values: Record<string, string>) => {
      const missing: string[] = [];
      const resolved = Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, interpolate(String(v), values, missing)]));
      expect(missing, 'variables compose.yaml requires that .env.example does not set').toEqual([]);
      return resolved;
    };
    // .env.example's header says so: the site refuses to start until each placeholder is changed.
    expect(() => loadConfig(resolve(exampleEnv))).toThrow(ConfigError);
    try {
      loadConfig(resolve(exampleEnv));
    } catch (err) {
      for (const variable of ['JWT_SECRET', 'AUDIT_SIGNING_KEY', 'DATABASE_URL', 'S3_SECRET_ACCESS_KEY']) expect((err as Error).message).toContain(`${variable}: `);
    }
    const fresh = () => randomBytes(36).toString('base64url');
    const filledIn = {
      ...exampleEnv,
      POSTGRES_PASSWORD: fresh(),
      MINIO_ROOT_PASSWORD: fresh(),
      JWT_SECRET: fresh(),
      AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    const config = loadConfig(resolve(filledIn));
    expect(config).toMatchObject({ NODE_ENV: 'production', STORAGE: 's3', TRUST_PROXY: true, DATA_DIR: '/data' });
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\/evidence:[^@]+@postgres:5432\/evidence$/);
    expect(config.S3_ENDPOINT).toBe('http://minio:9000');
  });

  it('requires every secret from .env rather than shipping one', () => {
    const text = read('compose.yaml');
    for (const secret of ['POSTGRES_PASSWORD', 'MINIO_ROOT_PASSWORD', 'JWT_SECRET', 'AUDIT_SIGNING_KEY']) {
      expect(text).toContain(`\${${secret}:?`);
      expect(exampleEnv[secret], `.env.example sets ${secret}`).toBeTruthy();
    }
    const all = [...text.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!);
    expect([...new Set(all)].filter((name) => !(name in exampleEnv))).toEqual([]);
  });

  it('mounts the Caddyfile, which proxies to every site replica with compression', () => {
    const mount = compose.services.caddy!.volumes!.find((v) => v.includes('/etc/caddy/Caddyfile'))!;
    const source = mount.split(':')[0]!;
    expect(existsSync(path.join(ROOT, source))).toBe(true);
    const caddyfile = read(source);
    expect(caddyfile).toMatch(/^\{\$SITE_ADDRESS\}( \{)?$/m);
    expect(caddyfile).toMatch(/^http:\/\/\*\.onion \{$/m);
    expect(caddyfile).toMatch(/^\s*encode .*gzip/m);
    expect(caddyfile).toMatch(/dynamic a site 3000/);
    expect(caddyfile).toMatch(/lb_try_duration/);
  });

  const composeAvailable = spawnSync('docker', ['compose', 'version']).status === 0;
  it.skipIf(!composeAvailable)('passes `docker compose config` (where the Compose plugin is installed)', () => {
    const result = spawnSync('docker', ['compose', '--env-file', '.env.example', '-f', 'compose.yaml', 'config', '--quiet'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const lines = dockerfile.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages = lines.filter((l) => /^FROM /i.test(l)).map((l) => / AS (\S+)$/i.exec(l)?.[1]);
  const finalStage = lines.slice(lines.findLastIndex((l) => /^FROM /i.test(l)));

  it('is multi-stage, and copies from stages that exist', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const line of lines.filter((l) => /^COPY --from=/i.test(l))) {
      expect(stages).toContain(/--from=(\S+)/.exec(line)![1]);
    }
  });

  it('copies only files that exist in a checkout and that .dockerignore lets through', () => {
    const ignored = read('.dockerignore').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['.git', '**/node_modules', '**/data', '.env']));
    for (const line of lines.filter((l) => /^COPY /i.test(l) && !/--from=/i.test(l))) {
      const parts = line.split(/\s+/).slice(1).filter((p) => !p.startsWith('--'));
      for (const source of parts.slice(0, -1)) {
        expect(existsSync(path.join(ROOT, source)), `COPY ${source}`).toBe(true);
        expect(source.split('/')).not.toContain('node_modules');
      }
    }
  });

  it('runs as a user that is not root, with a health check on /health, the server bundle and ffmpeg and Chromium', () => {
    const user = finalStage.filter((l) => /^USER /i.test(l)).at(-1);
    expect(user).toBeDefined();
    expect(user!.split(/\s+/)[1]).not.toMatch(/^(root|0)(:|$)/);
    expect(finalStage.some((l) => /^HEALTHCHECK .*\/health/i.test(l))).toBe(true);
    const install = finalStage.find((l) => /apt-get install/.test(l))!;
    for (const pkg of ['ffmpeg', 'chromium']) expect(install.split(/\s+/)).toContain(pkg);
    // The launcher every start goes through: it becomes node with the site's flags on the server bundle.
    expect(finalStage.find((l) => /^CMD /i.test(l))).toBe('CMD ["node", "scripts/serve.mjs"]');
    expect(read('scripts/serve.mjs')).toContain("'dist/main.js'");
    const copied = finalStage.filter((l) => /^COPY scripts\//.test(l)).flatMap((l) => l.split(/\s+/).slice(1, -1));
    // serve.mjs and what it imports; the admin commands' launcher (npm run admin in a container).
    expect(copied.sort()).toEqual(['scripts/exec-node.mjs', 'scripts/node-flags.mjs', 'scripts/serve.mjs', 'scripts/server-source.mjs']);
    for (const file of ['serve.mjs', 'server-source.mjs']) {
      for (const [, imported] of read(`scripts/${file}`).matchAll(/from '\.\/([\w-]+\.mjs)'/g)) expect(copied, `${file} imports ${imported}`).toContain(`scripts/${imported}`);
    }
    expect(JSON.parse(read('package.json')).scripts.admin).toBe('exec node scripts/server-source.mjs src/cli.ts');
    // The bundle the image starts is one that scripts/build-server.mjs makes.
    const build = read('scripts/build-server.mjs');
    for (const entry of ['main', 'worker', 'cli']) expect(build).toContain(`'${entry}'`);
  });

  it('listens on every interface of the container itself: the site defaults to 127.0.0.1 outside production', () => {
    const env = finalStage.filter((l) => /^ENV /i.test(l)).join(' ');
    expect(env).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(env).toMatch(/\bNODE_ENV=production\b/);
  });

  it('installs only production dependencies into the runtime image', () => {
    const deps = lines.slice(lines.findIndex((l) => / AS production-deps$/i.test(l)), lines.findLastIndex((l) => /^FROM /i.test(l)));
    expect(deps.find((l) => /npm ci/.test(l))).toContain('--omit=dev');
    expect(finalStage.filter((l) => /^COPY --from=build /i.test(l)).every((l) => /\/dist(-ssr)?\s/.test(l))).toBe(true);
    expect(finalStage.some((l) => /npm (ci|install)/.test(l))).toBe(false);
  });
});

describe('deploy/evidence-site.service (systemd, without Docker)', () => {
  /** The unit's sections and their keys (a key given twice, as Environment= is, keeps every value). */
  const unit = new Map<string, Map<string, string[]>>();
  let section = '';
  for (const line of read('deploy/evidence-site.service').split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) unit.set((section = header[1]!), new Map());
    else {
      const at = line.indexOf('=');
      const values = unit.get(section)!;
      values.set(line.slice(0, at), [...(values.get(line.slice(0, at)) ?? []), line.slice(at + 1)]);
    }
  }
  const service = unit.get('Service')!;
  const one = (key: string) => service.get(key)?.[0];
  const environment = Object.fromEntries((service.get('Environment') ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));

  it('runs the built site through scripts/serve.mjs in its checkout, as a user that is not root, in production', () => {
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    const [node, launcher, ...rest] = one('ExecStart')!.split(/\s+/);
    expect(launcher).toBe('scripts/serve.mjs');
    expect(rest).toEqual([]);
    expect(node).toBe(`${one('WorkingDirectory')}/node_modules/.bin/node`);
    expect(one('User')).toMatch(/^(?!root$|0$)\w+/);
    expect(environment.NODE_ENV).toBe('production');
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('gives the site only variables it reads, its data folder the one writable path, and time to stop on SIGTERM', () => {
    expect(Object.keys(environment).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    expect(environment.DATA_DIR).toBe(`/var/lib/${one('StateDirectory')}`);
    expect(one('ReadWritePaths')).toBe(environment.DATA_DIR);
    expect(one('KillSignal')).toBe('SIGTERM');
    // The site gives itself 10 s to close (bootstrap.ts, closeOnSignals) before systemd would kill it.
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(10);
    expect(one('Restart')).toBe('on-failure');
  });

  it('is the recipe docs/deploy.md and the README give', () => {
    const deploy = read('docs/deploy.md');
    expect(deploy).toContain('deploy/evidence-site.service');
    expect(deploy).toContain('npm ci && npm run build');
    expect(deploy).toContain(`DATA_DIR=${environment.DATA_DIR} npm run serve`);
    expect(read('README.md')).toContain('deploy/evidence-site.service');
    expect(existsSync(path.join(ROOT, 'scripts/serve.mjs'))).toBe(true);
  });
});

describe("the site's Node.js flags", () => {
  /** Folders that hold no file of the project's own (installed, built, generated or run-time data). */
  const NOT_OURS = new Set(['node_modules', '.git', 'dist', 'dist-ssr', 'data', 'test-results', 'playwright-report', 'coverage', '.tmp', 'results']);
  function* projectFiles(dir = ''): Generator<string> {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory() && !NOT_OURS.has(entry.name) && !entry.name.startsWith('data-')) yield* projectFiles(relative);
      else if (entry.isFile() && statSync(path.join(ROOT, relative)).size < 2_000_000) yield relative;
    }
  }

  it('are written in one place, scripts/node-flags.mjs: a copy anywhere else fails here (documentation may name them)', async () => {
    const { SITE_NODE_FLAGS } = (await import(pathToFileURL(path.join(ROOT, 'scripts/node-flags.mjs')).href)) as { SITE_NODE_FLAGS: string[] };
    expect(SITE_NODE_FLAGS.length).toBeGreaterThan(0);
    // Source maps cost memory at rest (docs/performance.md); NODE_OPTIONS turns them on (docs/configuration.md).
    expect(SITE_NODE_FLAGS).not.toContain('--enable-source-maps');
    const copies: string[] = [];
    for (const file of projectFiles()) {
      if (file === 'scripts/node-flags.mjs' || file.endsWith('.md')) continue;
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const flag of SITE_NODE_FLAGS) if (text.includes(flag.split('=')[0]!)) copies.push(`${file}: ${flag}`);
    }
    expect(copies).toEqual([]);
  });

  it('reach every start of the site: npm start, npm run serve, the image and the browser suite run scripts/serve.mjs', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toBe('exec node scripts/serve.mjs');
    expect(read(scripts.start!.replace(/^exec node /, ''))).toContain("from './serve.mjs'");
    expect((JSON.parse(read('apps/server/package.json')) as { scripts: Record<string, string> }).scripts.start).toBeUndefined();
    expect(read('Dockerfile')).toContain('CMD ["node", "scripts/serve.mjs"]');
    expect(read('playwright.config.ts')).toContain("command: 'node scripts/serve.mjs'");
    expect(read('scripts/serve.mjs')).toContain("import { SITE_NODE_FLAGS, withSiteEnvironment } from './node-flags.mjs'");
    expect(read('bench/lib/site.mjs')).toContain("import { SITE_NODE_FLAGS, withSiteEnvironment } from '../../scripts/node-flags.mjs'");
  });

  it("come with the site's environment, which an operator's own setting overrides", async () => {
    const { SITE_ENVIRONMENT, withSiteEnvironment } = (await import(pathToFileURL(path.join(ROOT, 'scripts/node-flags.mjs')).href)) as {
      SITE_ENVIRONMENT: Record<string, string>;
      withSiteEnvironment: (env: Record<string, string | undefined>) => Record<string, string | undefined>;
    };
    expect(SITE_ENVIRONMENT.MALLOC_ARENA_MAX).toBe('2');
    expect(withSiteEnvironment({ PORT: '1' })).toEqual({ ...SITE_ENVIRONMENT, PORT: '1' });
    expect(withSiteEnvironment({ MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8');
    expect(read('scripts/serve.mjs')).toContain('withSiteEnvironment(process.env)');
  });
});

describe('the Node.js the project runs on', () => {
  const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; optionalDependencies: Record<string, string> };
  const wantedMajor = Number(/\d+/.exec(pkg.engines.node)![0]);
  const pinned = Object.entries(pkg.optionalDependencies).filter(([name]) => /^node-(linux|darwin|win)-/.test(name));

  it('is a maintained LTS line, pinned to one version for every platform, and the image runs the same major', () => {
    // Node.js 20 reached its end of life in April 2026; 22 and 24 are the maintained LTS lines.
    expect(wantedMajor).toBeGreaterThanOrEqual(22);
    expect(pinned.length).toBeGreaterThan(0);
    const versions = new Set(pinned.map(([, version]) => version));
    expect(versions.size).toBe(1);
    const [version] = versions;
    expect(Number(version!.split('.')[0])).toBeGreaterThanOrEqual(wantedMajor);
    for (const from of read('Dockerfile').split('\n').filter((l) => /^FROM node:/i.test(l))) {
      expect(from).toContain(`node:${version!.split('.')[0]}-`);
    }
  });

  it('runs these tests: npm scripts put the pinned Node.js first on the PATH', () => {
    const installed = pinned.find(([name]) => existsSync(path.join(ROOT, 'node_modules', name, 'package.json')));
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(wantedMajor);
    // On a platform with a pinned package, the tests run on exactly that version (CI proves it on a machine whose
    // system Node.js is older).
    if (installed) expect(process.version).toBe(`v${installed[1]}`);
  });
});
