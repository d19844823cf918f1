import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { escapeHtml } from '@app/shared';

/**
 * Fonts the capture browser is given, whatever the host has: pages cited here are often in Amharic, and a host without
 * an Ethiopic font (only the Docker image installs one) screenshots their Ge'ez letters as empty boxes. The site's own
 * copy of Noto Sans Ethiopic (@fontsource, the web app's font) is written out as TrueType (Chromium takes no WOFF file
 * among the system's fonts) into a folder of the browser's own, which a fontconfig file names after the host's own
 * configuration: FONTCONFIG_FILE in the browser's environment. The host's fonts stay as they are.
 */

const WEIGHTS = [400, 700] as const;

/**
 * The WOFF2 files as TrueType, decompressed in a thread of their own: wawoff2 is an Emscripten module whose
 * WebAssembly memory (16 MB) stays for as long as its module is loaded, which in the site's process was for ever (a
 * sixth of the idle server's heap, for a job that runs once per capture browser). The thread's end frees it.
 */
function decompressWoff2(files: string[]): Promise<Uint8Array[]> {
  const resolve = createRequire(import.meta.url).resolve;
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    const decompress = require(workerData.decompress);
    Promise.all(workerData.files.map((file) => decompress(readFileSync(file)))).then(
      (fonts) => parentPort.postMessage({ fonts }),
      (err) => parentPort.postMessage({ error: String(err && err.message || err) }),
    );`;
  return new Promise((done, fail) => {
    const worker = new Worker(source, { eval: true, workerData: { decompress: resolve('wawoff2/decompress.js'), files } });
    worker.once('message', (answer: { fonts?: Uint8Array[]; error?: string }) => {
      void worker.terminate();
      if (answer.fonts) done(answer.fonts);
      else fail(new Error(answer.error ?? 'the font could not be decompressed'));
    });
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the font thread ended (${code}) before it answered`)));
  });
}

export interface CaptureFonts {
  /** What the browser's environment adds. */
  env: Record<string, string>;
  /** The families given, for the archive's warcinfo record. */
  families: string[];
  close(): void;
}

/** The fonts' folder and configuration, or null (with a warning: captures go on with the host's fonts) when they cannot be made. */
export async function captureFonts(log?: { warn: (msg: string) => void }): Promise<CaptureFonts | null> {
  const resolve = createRequire(import.meta.url).resolve;
  let dir: string | null = null;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'capture-fonts-'));
    const fonts = await decompressWoff2(WEIGHTS.map((weight) => resolve(`@fontsource/noto-sans-ethiopic/files/noto-sans-ethiopic-ethiopic-${weight}-normal.woff2`)));
    WEIGHTS.forEach((weight, i) => writeFileSync(path.join(dir!, `NotoSansEthiopic-${weight}.ttf`), fonts[i]!));
    // The cache of this folder in it (the first cache folder is the one written: not the host's, where each start's
    // folder would leave one more file), the host's configuration (its fonts, its rules), then this folder.
    const hostConfig = process.env.FONTCONFIG_FILE ?? '/etc/fonts/fonts.conf';
    const config = path.join(dir, 'fonts.conf');
    writeFileSync(
      config,
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n` +
        `  <cachedir>${escapeHtml(path.join(dir, 'cache'))}</cachedir>\n  <include ignore_missing="yes">${escapeHtml(hostConfig)}</include>\n  <dir>${escapeHtml(dir)}</dir>\n</fontconfig>\n`,
    );
    const made = dir;
    return { env: { FONTCONFIG_FILE: config }, families: ['Noto Sans Ethiopic'], close: () => rmSync(made, { recursive: true, force: true }) };
  } catch (err) {
    if (dir) rmSync(dir, { recursive: true, force: true });
    log?.warn(`capture browser: the site's fonts could not be given to it (${(err as Error).message}); Ge'ez letters show only where the host has a font for them`);
    return null;
  }
}
