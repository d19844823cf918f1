import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db';
import { media, type MediaRow } from '../../db/schema';
import { ACCEPTED_TYPES } from './formats';
import { makePublicImage } from './images';
import { newPublicKey } from './public-access';
import type { Storage } from './storage';
import { extractPoster, probeVideo, transcodeToMp4 } from './video';

export const VIDEO_JOB = 'video.process';
export const VIDEO_JOB_ATTEMPTS = 3;

/** What the video job uses. */
export interface VideoJobContext {
  db: Db;
  storage: Storage;
  /** Where the job works on its files (a folder of the data directory). */
  tmpDir: string;
  /** ffmpeg and ffprobe paths, or null when ffmpeg is not installed (videos are then served as uploaded). */
  ffmpeg: { ffmpeg: string; ffprobe: string | null } | null;
  log?: { info: (msg: string) => void; warn: (msg: string) => void };
}

/**
 * The `video.process` job: a web-playable MP4 and a poster. Without ffmpeg the uploaded file itself becomes the
 * public copy. Failures are retried by the queue; the last one marks the video failed with the reason.
 */
export async function processVideo(ctx: VideoJobContext, mediaId: string, job: { attempts: number } = { attempts: 1 }): Promise<void> {
  const { db } = ctx;
  const [row] = await db.select().from(media).where(eq(media.id, mediaId)).limit(1);
  if (!row || row.kind !== 'video') return;
  await db.update(media).set({ status: 'processing', statusReason: null }).where(eq(media.id, mediaId));
  try {
    if (ctx.ffmpeg) await transcode(ctx, ctx.ffmpeg, row);
    else await serveAsUploaded(ctx, row);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    const final = job.attempts >= VIDEO_JOB_ATTEMPTS;
    await db
      .update(media)
      .set({ status: final ? 'failed' : 'queued', statusReason: final ? reason : `retrying after: ${reason}` })
      .where(eq(media.id, mediaId));
    throw err;
  }
}

async function serveAsUploaded(ctx: VideoJobContext, row: MediaRow): Promise<void> {
  const key = newPublicKey(ACCEPTED_TYPES[row.mime]?.ext ?? 'bin');
  await ctx.storage.put(key, await ctx.storage.get(row.storageKey), row.mime, row.size);
  const reason = 'ffmpeg is not installed: the video is served as uploaded';
  ctx.log?.warn(`media ${row.id}: ${reason}`);
  await ctx.db.update(media).set({ status: 'ready', statusReason: reason, publicKey: key }).where(eq(media.id, row.id));
}

async function transcode(ctx: VideoJobContext, tools: { ffmpeg: string; ffprobe: string | null }, row: MediaRow): Promise<void> {
  // The process running the job may not be the one that took the upload (a worker, another server): its staging
  // folder may not exist yet.
  await mkdir(ctx.tmpDir, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(path.join(ctx.tmpDir, 'video-'));
  try {
    const input = path.join(work, `original.${ACCEPTED_TYPES[row.mime]?.ext ?? 'bin'}`);
    await pipeline(await ctx.storage.get(row.storageKey), createWriteStream(input, { mode: 0o600 }));
    const probe = tools.ffprobe ? await probeVideo(tools.ffprobe, input) : null;
    const output = path.join(work, 'web.mp4');
    await transcodeToMp4(tools.ffmpeg, input, output);
    const posterPath = path.join(work, 'poster.png');
    await extractPoster(tools.ffmpeg, input, posterPath, probe?.durationSeconds ?? null);
    const poster = await makePublicImage(posterPath, ctx.storage);

    const mp4Key = newPublicKey('mp4');
    const mp4Size = (await stat(output)).size;
    try {
      await ctx.storage.put(mp4Key, createReadStream(output), 'video/mp4', mp4Size);
    } catch (err) {
      // The job is tried again and makes a poster anew: this one would be named by nothing.
      for (const { key } of poster.variants) await ctx.storage.delete(key).catch(() => {});
      throw err;
    }
    const webProbe = tools.ffprobe ? await probeVideo(tools.ffprobe, output) : null;
    await ctx.db
      .update(media)
      .set({
        status: 'ready',
        statusReason: null,
        publicKey: mp4Key,
        variants: poster.variants,
        width: webProbe?.width ?? poster.width,
        height: webProbe?.height ?? poster.height,
        restricted: (probe?.restricted ?? row.restricted) as Record<string, unknown> | null,
      })
      .where(eq(media.id, row.id));
    ctx.log?.info(`media ${row.id}: video processed (${mp4Size} bytes web copy)`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
