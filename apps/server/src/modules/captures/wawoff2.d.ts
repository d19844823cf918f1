/** The part of wawoff2 (JavaScript, no types of its own) the capture browser's fonts use. */
declare module 'wawoff2/decompress.js' {
  /** A WOFF2 font as the TrueType (or OpenType) file it packs. */
  export default function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
