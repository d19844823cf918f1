import { CATEGORIES, dataFields, escapeHtml, type CategorySlug } from '@app/shared';
import type { PackageContents } from './contents';
import type { Custody } from './custody';
import { auditKeyPath, capturePath, checkpointPath, originalPath } from './layout';
import type { PackageRequest } from './package';

/**
 * `data/README.html`: what the package is, for a reader with a browser and nothing else. Every value from the
 * database goes through escapeHtml; the page has no script and loads nothing (it may be opened offline, from a court's
 * evidence drive).
 */

interface ReadmeInput {
  contents: PackageContents;
  custody: Custody;
  request: PackageRequest;
  packagedAt: Date;
  siteName: string;
  siteUrl: string;
}

const e = (value: unknown) => escapeHtml(value === null || value === undefined ? '' : String(value));
const code = (value: unknown) => `<code>${e(value)}</code>`;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1a1a1a}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{border:1px solid #ccc;padding:.3rem;text-align:left;vertical-align:top}
code,pre{font-family:ui-monospace,monospace;font-size:.85rem;overflow-wrap:anywhere}pre{background:#f4f4f4;padding:.6rem;white-space:pre-wrap}
.scroll{overflow-x:auto}.wide{min-width:40rem}.note{background:#fff6d6;padding:.5rem;border-left:4px solid #c90}`;

/** The kinds of field shown in the summary: short values (the description is shown apart; files and sources have sections). */
const SHOWN_KINDS = new Set(['text', 'datetime', 'date', 'quantity', 'region', 'url', 'urlList', 'choice', 'coordinate']);

/** The record's own fields, by their registry names, as the package's record.json holds them. */
function recordFields(contents: PackageContents): string {
  const category = CATEGORIES[contents.record.row.category as CategorySlug];
  if (!category) return '';
  const dto = contents.record.dto as Record<string, unknown>;
  const rows = dataFields(category)
    .filter((f) => SHOWN_KINDS.has(f.kind) && f.name !== 'title' && dto[f.name] !== null && dto[f.name] !== undefined && dto[f.name] !== '')
    .map((f) => `<tr><th scope="row">${e(f.name)}</th><td>${e(String(dto[f.name]).slice(0, 300))}</td></tr>`)
    .join('\n');
  return rows ? `<div class="scroll"><table><tbody>${rows}</tbody></table></div>` : '';
}

function summary({ contents, request, packagedAt, siteName, siteUrl }: ReadmeInput): string {
  const r = contents.record.row;
  return `<h1>Evidence package: ${e(r.title)}</h1>
<dl>
<dt>Record</dt><dd>${e(request.category)} ${code(r.id)}${r.happenedOn ? `, happened ${e(new Date(r.happenedOn).toISOString().slice(0, 10))}` : ''}</dd>
<dt>Site</dt><dd>${e(siteName)}, ${e(siteUrl)}</dd>
<dt>Packaged</dt><dd>${e(packagedAt.toISOString())} ${request.via === 'command line' ? "with the site's command line" : `by account ${code(request.actor.id)} (${e(request.actor.role)}), through the API`}</dd>
<dt>Contents</dt><dd>${contents.people.length} linked people, ${contents.media.length} original files, ${contents.captures.length} captures of cited pages</dd>
<dt>Withheld witness testimony</dt><dd>${request.includeWithheld ? '<strong>Included</strong>: handle this package as holding a witness\'s identity.' : 'Left out: each withheld source is shown as a placeholder only.'}</dd>
</dl>
<p>${e(r.description.slice(0, 600))}${r.description.length > 600 ? '…' : ''}</p>
${recordFields(contents)}`;
}

const FILES: [string, string][] = [
  ['data/record.json', 'The record as the site holds it now.'],
  ['data/record-versions.json', 'Every version of the record, oldest first, rebuilt from the audit log.'],
  ['data/people/', 'The people linked to the incident, each with their versions.'],
  ['data/sources.json', 'The sources each record cites.'],
  ['data/originals/', 'Every original file exactly as uploaded (the evidentiary copies); data/originals.json gives the SHA-256 recorded at upload, the uploader and the time.'],
  ['data/public/', 'The public copies (working copies: resized, metadata removed); data/public.json says which original each comes from.'],
  ['data/captures/', 'Each archived web page: WACZ web archive, MHTML snapshot, screenshot, response headers, TLS certificates and RFC 3161 time-stamp.'],
  ['data/custody.ndjson', 'The audit log entries about all of this, the entries linking them to signed checkpoints, and the checkpoints.'],
  ['data/checkpoints/', 'Each checkpoint\'s signed statement, signature and time-stamp token, as files for openssl.'],
  ['data/keys/', 'The public keys: audit keys (Ed25519) and the capture key (ECDSA P-384). Compare them with the keys the site publishes.'],
  ['manifest-sha256.txt', 'The SHA-256 of every file under data/ (BagIt, RFC 8493).'],
];

function originalsTable(contents: PackageContents): string {
  if (!contents.media.length) return '<p>No original files.</p>';
  const rows = contents.media
    .map((f) => `<tr><td>${code(`data/${originalPath(f)}`)}</td><td>${e(f.mime)}, ${e(f.size)} bytes${f.removedAt ? ', taken off the record' : ''}</td><td>${code(f.sha256)}</td><td>${code(f.uploadedBy)}<br>${e(f.createdAt.toISOString())}</td></tr>`)
    .join('\n');
  return `<div class="scroll"><table class="wide"><thead><tr><th>File</th><th>Type</th><th>SHA-256 at upload</th><th>Uploader, time</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function capturesTable(contents: PackageContents): string {
  if (!contents.captures.length) return '<p>No captures.</p>';
  const rows = contents.captures
    .map((c) => `<tr><td>${e(c.url)}</td><td>${e(c.status)}${c.capturedAt ? `, ${e(c.capturedAt.toISOString())}` : ''}</td><td>${code(capturePath(c, ''))}</td></tr>`)
    .join('\n');
  return `<div class="scroll"><table class="wide"><thead><tr><th>Page</th><th>Captured</th><th>Folder</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function custodySection(custody: Custody): string {
  const count = (role: string) => custody.entries.filter((x) => x.role === role).length;
  const sealed = custody.entries.filter((x) => x.sealed).length;
  const rows = custody.checkpoints.map((c) => `<tr><td>${e(c.seq)}</td><td>${e(c.at)}</td><td>${code(c.keyId.slice(0, 16))}</td><td>${c.timestampToken ? 'yes' : 'no'}</td></tr>`).join('\n');
  return `<p>${count('record')} entries about these records, ${count('key')} introducing signing keys, ${count('link')} linking them to checkpoints; ${sealed} sealed (content left out, hashes kept); ${custody.checkpoints.length} signed checkpoints.</p>
${sealed ? '<p class="note">A sealed entry\'s content is not in this package (a withheld testimony, or another record that is not public). The link through it rests on the hash the site states for it; the site\'s full audit export proves it.</p>' : ''}
<div class="scroll"><table class="wide"><thead><tr><th>Checkpoint at entry</th><th>Signed at</th><th>Key</th><th>Time-stamped</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function verifySection(custody: Custody): string {
  const c = custody.checkpoints.at(-1);
  const ck = c ? checkpointPath(c.seq, 'statement.txt').replace('/statement.txt', '') : 'checkpoints/SEQ';
  const key = c ? auditKeyPath(c.keyId) : 'keys/audit-key-KEYID.pem';
  return `<pre>sha256sum -c manifest-sha256.txt            # every file: OK
sha256sum -c tagmanifest-sha256.txt
openssl pkeyutl -verify -pubin -inkey data/${e(key)} -rawin \\
  -in data/${e(ck)}/statement.txt -sigfile data/${e(ck)}/signature.bin
openssl ts -verify -data data/${e(ck)}/statement.txt -in data/${e(ck)}/timestamp.tsr -token_in -CAfile tsa-ca.pem
npm run admin -- verify-package package.zip --key audit-key.pem --capture-key capture-key.pem</pre>
<p>Use the keys the site publishes (<code>/.well-known/audit-key</code>, <code>/.well-known/capture-key</code>), fetched and kept by you, not only the copies in this package. The full steps are in the site's documentation, docs/evidence-packages.md.</p>`;
}

export function renderReadme(input: ReadmeInput): string {
  const files = FILES.map(([path, what]) => `<tr><td>${code(path)}</td><td>${e(what)}</td></tr>`).join('\n');
  const people = input.contents.people.map((p) => `<li>${e(p.row.category)}: ${e(p.row.title)} ${code(`data/people/${p.row.id}.json`)}</li>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Evidence package: ${e(input.contents.record.row.title)}</title><style>${STYLE}</style></head>
<body><main>
${summary(input)}
<h2>What each file is</h2><div class="scroll"><table><thead><tr><th>Path</th><th>What it is</th></tr></thead><tbody>${files}</tbody></table></div>
<h2>People (${input.contents.people.length})</h2>${people ? `<ul>${people}</ul>` : '<p>None linked.</p>'}
<h2>Original files</h2>${originalsTable(input.contents)}
<h2>Captures of cited pages</h2>${capturesTable(input.contents)}
<h2>Chain of custody</h2>${custodySection(input.custody)}
<h2>How to verify</h2>${verifySection(input.custody)}
</main></body></html>
`;
}
