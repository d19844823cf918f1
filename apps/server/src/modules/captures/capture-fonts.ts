import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import decompress from 'wawoff2/decompress.js';
import { escapeHtml } from '@app/shared';

/**
 * Fonts the capture browser is given, whatever the host has: pages cited here are often in Amharic, and a host without
 * an Ethiopic font (only the Docker image installs one) screenshots their Ge'ez letters as empty boxes. The site's own
 * copy of Noto Sans Ethiopic (@fontsource, the web app's font) is written out as TrueType (Chromium takes no WOFF file
 * among the system's fonts) into a folder of the browser's own, which a fontconfig file names after the host's own
 * configuration: FONTCONFIG_FILE in the browser's environment. The host's fonts stay as they are.
 */

const WEIGHTS = [400, 700] as const;

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
    for (const weight of WEIGHTS) {
      const woff2 = await readFile(resolve(`@fontsource/noto-sans-ethiopic/files/noto-sans-ethiopic-ethiopic-${weight}-normal.woff2`));
      writeFileSync(path.join(dir, `NotoSansEthiopic-${weight}.ttf`), await decompress(woff2));
    }
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
