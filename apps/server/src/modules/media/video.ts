import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { RestrictedInfo } from './images';

/**
 * ffmpeg from the system (Debian's package; `ffmpeg-static` cannot download here). FFMPEG_PATH overrides the PATH
 * search; FFMPEG_PATH=none turns video processing off.
 */
export function findFfmpeg(env: Record<string, string | undefined> = process.env): { ffmpeg: string; ffprobe: string | null } | null {
  if (env.FFMPEG_PATH === 'none') return null;
  const candidates = env.FFMPEG_PATH ? [env.FFMPEG_PATH] : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'ffmpeg'));
  const ffmpeg = candidates.find(isExecutable);
  if (!ffmpeg) return null;
  const probe = path.join(path.dirname(ffmpeg), 'ffprobe');
  return { ffmpeg, ffprobe: isExecutable(probe) ? probe : null };
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command and resolves with its stdout; rejects with the end of stderr, which says what went wrong. */
function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else {
        const lastLines = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new Error(`${path.basename(command)} ${signal ? `killed (${signal})` : `exited with ${code}`}: ${lastLines}`));
      }
    });
  });
}

interface VideoProbe {
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  restricted: RestrictedInfo | null;
}

/** Duration, size and the capture metadata phones write into MP4/MOV (creation time, ISO 6709 location, device). */
export async function probeVideo(ffprobe: string, input: string): Promise<VideoProbe> {
  const out = JSON.parse(
    await run(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input], 60_000),
  ) as { format?: { duration?: string; tags?: Record<string, string> }; streams?: { codec_type?: string; width?: number; height?: number }[] };
  const tags = Object.fromEntries(Object.entries(out.format?.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const video = out.streams?.find((s) => s.codec_type === 'video');
  const restricted: RestrictedInfo = {};
  const created = tags['com.apple.quicktime.creationdate'] ?? tags.creation_time;
  if (created && !Number.isNaN(Date.parse(created))) restricted.capturedAt = new Date(created).toISOString();
  const location = tags['com.apple.quicktime.location.iso6709'] ?? tags.location;
  const iso = location?.match(/^([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)?/);
  if (iso) {
    restricted.gps = { latitude: Number(iso[1]), longitude: Number(iso[2]) };
    if (iso[3]) restricted.gps.altitude = Number(iso[3]);
  }
  const make = tags['com.apple.quicktime.make'] ?? tags.make;
  const model = tags['com.apple.quicktime.model'] ?? tags.model;
  if (make) restricted.make = make;
  if (model) restricted.model = model;
  const duration = Number(out.format?.duration);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    restricted: Object.keys(restricted).length ? restricted : null,
  };
}

/**
 * A web-playable copy: H.264 video (at most 1280 wide, even sizes as yuv420p needs), AAC audio when there is audio,
 * the index at the front (faststart) so playback and seeking start before the download ends, and no metadata
 * (location, device, creation time) or chapters carried over.
 */
export async function transcodeToMp4(ffmpeg: string, input: string, output: string): Promise<void> {
  await run(
    ffmpeg,
    [
      '-hide_banner', '-nostdin', '-y', '-i', input,
      '-map', '0:v:0', '-map', '0:a:0?',
      '-vf', "scale='trunc(min(1280,iw)/2)*2':-2",
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-profile:v', 'high',
      '-c:a', 'aac', '-b:a', '128k', '-ac', '2',
      '-map_metadata', '-1', '-map_chapters', '-1',
      '-movflags', '+faststart',
      output,
    ],
    6 * 60 * 60_000,
  );
}

/** One frame as a PNG, taken a little into the video (the first frame is often black), or the first when short. */
export async function extractPoster(ffmpeg: string, input: string, output: string, durationSeconds: number | null): Promise<void> {
  const at = durationSeconds && durationSeconds > 2 ? Math.min(3, durationSeconds / 3) : 0;
  await run(ffmpeg, ['-hide_banner', '-nostdin', '-y', '-ss', at.toFixed(2), '-i', input, '-frames:v', '1', '-an', output], 5 * 60_000);
}
