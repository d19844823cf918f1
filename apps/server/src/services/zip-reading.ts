import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * Reads a ZIP (a package or a capture's WACZ) entry by entry, each stream read to its end before the next is opened,
 * so a reader holds one entry's bytes at most; entries' declared sizes are checked against what they hold.
 */
export async function forEachZipEntry(source: string | Buffer, read: (entry: yauzl.Entry, stream: Readable) => Promise<void>): Promise<void> {
  const options = { lazyEntries: true, validateEntrySizes: true };
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    const opened = (err: Error | null, z?: yauzl.ZipFile) => (err || !z ? reject(err ?? new Error('not a ZIP file')) : resolve(z));
    if (typeof source === 'string') yauzl.open(source, options, opened);
    else yauzl.fromBuffer(source, options, opened);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error(`cannot read ${entry.fileName}`));
          read(entry, stream).then(() => zip.readEntry(), reject);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}
