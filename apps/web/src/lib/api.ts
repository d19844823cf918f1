import { API_BASE, TOTAL_COUNT_HEADER, type ErrorBody } from '@app/shared';
import { session } from './session';
import { stepUp } from './step-up';

/** A failed call: `fields` holds the server's field errors keyed by field name; `message` a general one. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: ErrorBody,
  ) {
    super(body.message ?? Object.values(body)[0] ?? `Request failed (${status})`);
    this.name = 'ApiError';
  }
  get fields(): ErrorBody {
    return this.body;
  }
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
  /** Absolute path (e.g. /api/users/signin) instead of one under the records base. */
  raw?: boolean;
  /** Not asked again after a step-up (the step-up call itself, and the one retry). */
  noStepUp?: boolean;
}

function apiUrl(path: string, query?: RequestOptions['query'], raw = false): string {
  const base = raw ? path : `${API_BASE}${path}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${base}?${qs}` : base;
}

function headers(body: unknown): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json' };
  const s = session.get();
  if (s) h.authorization = `Bearer ${s.token}`;
  if (body !== undefined && !(body instanceof FormData)) h['content-type'] = 'application/json';
  return h;
}

async function errorFrom(res: Response): Promise<ApiError> {
  let body: ErrorBody = { message: `Request failed (${res.status})` };
  try {
    const parsed = (await res.json()) as unknown;
    if (parsed && typeof parsed === 'object') body = parsed as ErrorBody;
  } catch {
    // Not JSON: keep the generic message.
  }
  // A token the server no longer accepts (expired, password reset) signs the user out.
  if (res.status === 401 && session.get()) session.clear();
  return new ApiError(res.status, body);
}

type Transport = (url: string, init: RequestInit) => Promise<Response>;
let transport: Transport = (url, init) => fetch(url, init);

/** When the server renders a page it answers the page's API calls itself, without a network round trip. */
export function setApiTransport(next: Transport): void {
  transport = next;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  let res: Response;
  try {
    res = await transport(apiUrl(path, options.query, options.raw), {
      method: options.method ?? 'GET',
      headers: headers(options.body),
      body: options.body === undefined ? undefined : options.body instanceof FormData ? options.body : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, { message: 'The site could not be reached. Check your connection and try again.' });
  }
  if (!res.ok) {
    const error = await errorFrom(res);
    // An action that can hurt a witness asks for a fresh factor: asked once, then sent again (lib/step-up.ts).
    if (error.status === 403 && error.body.code === 'stepUpRequired' && !options.noStepUp && (await stepUp.ask())) {
      return send(path, { ...options, noStepUp: true });
    }
    throw error;
  }
  return res;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(path, options);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A file answer (a ZIP, a CSV export) as a Blob, for a download the browser cannot make itself (it needs the session). */
export async function requestBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await send(path, options)).blob();
}

interface Page<T> {
  items: T[];
  /** From X-Total-Count: the "(n)" of list titles. */
  total: number;
}

/** A list call: the body is an array, the total comes in a header. */
export async function requestPage<T>(path: string, options: RequestOptions = {}): Promise<Page<T>> {
  const res = await send(path, options);
  const items = (await res.json()) as T[];
  const total = Number(res.headers.get(TOTAL_COUNT_HEADER) ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

/** A list read by cursor: the body is an array, the next page's cursor comes in X-Next-Cursor (null on the last page). */
export async function requestCursorPage<T>(path: string, options: RequestOptions = {}): Promise<{ items: T[]; next: string | null }> {
  const res = await send(path, options);
  return { items: (await res.json()) as T[], next: res.headers.get('X-Next-Cursor') };
}

/**
 * Multipart upload with progress (fetch cannot report upload progress). Resolves with the parsed body.
 */
export function upload<T>(path: string, form: FormData, options: { method?: string; onProgress?: (percent: number) => void } = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', apiUrl(path));
    const s = session.get();
    if (s) xhr.setRequestHeader('authorization', `Bearer ${s.token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError(0, { message: 'The upload failed. Check your connection and try again.' }));
    xhr.onload = () => {
      let body: unknown = undefined;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = { message: `Request failed (${xhr.status})` };
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(100);
        resolve(body as T);
      } else {
        if (xhr.status === 401 && session.get()) session.clear();
        reject(new ApiError(xhr.status, (body as ErrorBody) ?? { message: `Request failed (${xhr.status})` }));
      }
    };
    xhr.send(form);
  });
}
