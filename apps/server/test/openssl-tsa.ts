import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';

/**
 * A local RFC 3161 time-stamping authority made with `openssl ts -reply`, on loopback, for the tests: a throwaway
 * root ("Test TSA root, not a real authority") with TSA certificates under it, one valid, one expired, and one under
 * another root nobody trusts. `mode` chooses how the next requests are answered.
 */
export type TsaMode = 'good' | 'wrong-imprint' | 'untrusted' | 'expired';

const openssl = (cwd: string, args: string[], input?: Buffer) => execFileSync('openssl', args, { cwd, input, stdio: ['pipe', 'pipe', 'pipe'] });

function caConfig(dir: string, name: string): string {
  const file = path.join(dir, `${name}-ca.cnf`);
  writeFileSync(path.join(dir, `${name}-index.txt`), '');
  writeFileSync(path.join(dir, `${name}-serial`), '01\n');
  writeFileSync(
    file,
    `[ca]
default_ca = ca_section
[ca_section]
dir = ${dir}
database = ${dir}/${name}-index.txt
serial = ${dir}/${name}-serial
new_certs_dir = ${dir}
certificate = ${dir}/${name}-root.pem
private_key = ${dir}/${name}-root.key
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[anything]
commonName = supplied
[tsa_cert]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`,
  );
  return file;
}

function makeRoot(dir: string, name: string) {
  openssl(dir, [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}-root.key`, '-out', `${name}-root.pem`,
    '-subj', `/CN=Test TSA root ${name}, not a real authority`, '-days', '3650', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return caConfig(dir, name);
}

/** A TSA certificate issued by root `root`, valid from `start` to `end` (openssl's YYYYMMDDHHMMSSZ). */
function makeTsaCert(dir: string, root: string, config: string, name: string, start: string, end: string) {
  openssl(dir, ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=Test TSA ${name}, not a real authority`]);
  openssl(dir, ['ca', '-batch', '-config', config, '-extensions', 'tsa_cert', '-startdate', start, '-enddate', end, '-in', `${name}.csr`, '-out', `${name}.pem`, '-notext']);
  writeFileSync(path.join(dir, `${name}-chain.pem`), Buffer.concat([readFileSync(path.join(dir, `${name}.pem`)), readFileSync(path.join(dir, `${root}-root.pem`))]));
}

const stamp = (d: Date) => `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

export async function startOpensslTsa() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openssl-tsa-'));
  const day = 86_400_000;
  const now = Date.now();
  const trustedConfig = makeRoot(dir, 'trusted');
  const otherConfig = makeRoot(dir, 'other');
  makeTsaCert(dir, 'trusted', trustedConfig, 'good', stamp(new Date(now - day)), stamp(new Date(now + 30 * day)));
  makeTsaCert(dir, 'trusted', trustedConfig, 'expired', stamp(new Date(now - 30 * day)), stamp(new Date(now - day)));
  makeTsaCert(dir, 'other', otherConfig, 'untrusted', stamp(new Date(now - day)), stamp(new Date(now + 30 * day)));
  writeFileSync(path.join(dir, 'tsa-serial'), '01\n');
  writeFileSync(
    path.join(dir, 'tsa.cnf'),
    `[tsa]
default_tsa = tsa_config
[tsa_config]
serial = ${dir}/tsa-serial
default_policy = 1.2.3.4.1
digests = sha256
signer_digest = sha256
ess_cert_id_alg = sha256
accuracy = secs:1
ordering = no
tsa_name = no
ess_cert_id_chain = no
`,
  );

  let mode: TsaMode = 'good';
  const answer = (query: Buffer): Buffer => {
    let q = query;
    if (mode === 'wrong-imprint') {
      // The authority answers another hash than the one asked for (and so another nonce): a token for other data.
      writeFileSync(path.join(dir, 'other-data'), `test content: not what was asked ${Date.now()}`);
      q = openssl(dir, ['ts', '-query', '-data', 'other-data', '-sha256', '-cert']);
    }
    writeFileSync(path.join(dir, 'request.tsq'), q);
    const signer = mode === 'wrong-imprint' ? 'good' : mode;
    openssl(dir, [
      'ts', '-reply', '-config', 'tsa.cnf', '-queryfile', 'request.tsq', '-signer', `${signer}.pem`, '-inkey', `${signer}.key`,
      '-chain', `${signer}-chain.pem`, '-out', 'response.tsr',
    ]);
    return readFileSync(path.join(dir, 'response.tsr'));
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(answer(Buffer.concat(chunks)));
      } catch (err) {
        res.writeHead(500).end((err as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    dir,
    /** The root the good and the expired certificates chain to: what an operator puts in TSA_CA_FILE. */
    trustedRootPem: readFileSync(path.join(dir, 'trusted-root.pem'), 'utf8'),
    setMode: (m: TsaMode) => {
      mode = m;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
