import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A real S3 API on loopback (s3rver, files in a temporary folder) with the given buckets, for the S3 storage tests. */
export async function startS3Server(buckets: string[]) {
  const directory = mkdtempSync(path.join(os.tmpdir(), 's3-test-'));
  // s3rver ships no types.
  const { default: S3rver } = (await import('s3rver' as string)) as {
    default: new (options: Record<string, unknown>) => { run: () => Promise<{ port: number }>; close: () => Promise<void> };
  };
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  return {
    port,
    /** The site's settings for storing in `bucket` on this server. */
    env: (bucket: string) => ({
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    }),
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
