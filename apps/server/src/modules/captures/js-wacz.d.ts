/** The part of @harvard-lil/js-wacz (JavaScript, no types of its own) the captures use. */
declare module '@harvard-lil/js-wacz' {
  export interface WACZResource {
    name: string;
    path: string;
    hash: string;
    bytes: number;
  }
  export interface WACZOptions {
    input: string | string[];
    output: string;
    url?: string;
    ts?: string;
    title?: string;
    description?: string;
    signingUrl?: string;
    datapackageExtras?: Record<string, unknown>;
    log?: { trace: (...a: unknown[]) => void; info: (...a: unknown[]) => void; warn: (...a: unknown[]) => void; error: (...a: unknown[]) => void };
  }
  export class WACZ {
    constructor(options: WACZOptions);
    resources: WACZResource[];
    datapackageDate: string | null;
    signingUrl: string | null;
    indexWARCPool: { destroy(): Promise<void> } | null;
    addCDXJ(line: string): void;
    addPage(url: string, title?: string | null, ts?: string | null): unknown;
    addFileToZip(file: string | Uint8Array, destination: string): Promise<WACZResource>;
    requestSignature(): Promise<Record<string, unknown>>;
    process(verbose?: boolean): Promise<void>;
  }
}
