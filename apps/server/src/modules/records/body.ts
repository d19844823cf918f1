import { PassThrough, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { AppError, errorKey, httpError } from '../../errors';
import type { IncomingFile } from '../media/service';
import { asStorageFailure } from '../media/storage';
import { NUL_MESSAGE } from '../../plugins/input-guard';

/** Multipart file field names as clients send them, mapped to the registry's upload field names. */
const FILE_FIELD_ALIASES: Record<string, string> = { image: 'image', files: 'files', 'files[]': 'files' };

export interface UploadPart {
  /** Registry upload field name: `image` or `files`. */
  field: string;
  file: IncomingFile;
}

/**
 * Reads a create or edit body, multipart or JSON, without buffering files: text fields are collected as they come,
 * and the caller gets each file as a stream when it is reached, so it can validate the fields sent before the first
 * file and store files one by one.
 */
export interface BodyReader {
  /** Text fields read so far (later values of a repeated name win). */
  fields: Record<string, unknown>;
  /** Reads on until the next file (returned) or the end of the body (null), collecting text fields. */
  nextFile(): Promise<UploadPart | null>;
}

export function openBody(request: FastifyRequest): BodyReader {
  if (!request.isMultipart()) {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw httpError.badRequest({ message: 'The body must be a JSON object or multipart form data' });
    }
    return { fields: { ...(body as Record<string, unknown>) }, nextFile: async () => null };
  }
  const parts = request.parts()[Symbol.asyncIterator]();
  const fields: Record<string, unknown> = {};
  return {
    fields,
    async nextFile() {
      for (;;) {
        let step: IteratorResult<Multipart>;
        try {
          step = await parts.next();
        } catch (err) {
          throw asClientError(err);
        }
        if (step.done) return null;
        const part = step.value;
        if (part.type === 'field') {
          if (part.valueTruncated) throw httpError.badRequest({ [errorKey(part.fieldname)]: 'This value is too long' });
          const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
          if (value.includes('\u0000') || part.fieldname.includes('\u0000')) throw httpError.badRequest({ [errorKey(part.fieldname)]: NUL_MESSAGE });
          fields[part.fieldname] = value;
          continue;
        }
        const file = part as MultipartFile;
        // A form with an empty file input still sends the part, with no name and no bytes: nothing was chosen.
        if (!file.filename) {
          file.file.resume();
          continue;
        }
        if (file.filename.includes('\u0000')) {
          file.file.resume();
          throw httpError.badRequest({ [errorKey(file.fieldname)]: `File name: ${NUL_MESSAGE}` });
        }
        const field = FILE_FIELD_ALIASES[file.fieldname];
        if (!field) {
          file.file.resume();
          throw httpError.badRequest({ [errorKey(file.fieldname)]: 'Unexpected file field' });
        }
        return { field, file: { field: file.fieldname, filename: file.filename, mimetype: file.mimetype, stream: holdErrors(file.file) } };
      }
    },
  };
}

/**
 * Maps what the multipart parser throws (truncated bodies, bad boundaries, limits) to 4xx answers; anything already
 * an application error passes through. Used around reading parts and consuming file streams.
 */
export function asClientError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  // A failed write of a file ("EACCES ... open '<file>.part'") is the store's failure (503), not the form's.
  const storageFailure = asStorageFailure(err);
  if (storageFailure !== err) return storageFailure;
  const e = err as { code?: string; statusCode?: number; message?: string; name?: string };
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') return httpError.tooLarge('image', 'The file is too large');
  if (e?.code === 'FST_PARTS_LIMIT' || e?.code === 'FST_FILES_LIMIT' || e?.code === 'FST_FIELDS_LIMIT') {
    return httpError.tooLarge('message', 'Too many parts in the form');
  }
  if (e?.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || e?.code === 'FST_PROTO_VIOLATION') {
    return httpError.badRequest({ message: 'The form data is malformed' });
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode, { message: e.message ?? 'Bad request' });
  }
  // busboy reports a broken body as a plain Error ("Unexpected end of form", "Malformed part header", ...).
  if (e instanceof Error && /form|part|boundary|multipart|header|stream|aborted|premature/i.test(e.message)) {
    return httpError.badRequest({ message: 'The form data is malformed' });
  }
  return err;
}

/**
 * The file stream as the consumer will see it, with its failure kept until the consumer listens. A truncated body
 * fails the multipart file stream as soon as the parser reaches its end, which for a small file is before the
 * consumer (after a few awaits) attaches its 'error' listener; an event emitted then would be lost and the upload
 * would wait forever.
 */
function holdErrors(source: Readable & { truncated?: boolean }): Readable {
  const out = new PassThrough();
  Object.defineProperty(out, 'truncated', { get: () => source.truncated });
  let failed = false;
  const failWith = (err: Error) => {
    if (failed) return;
    failed = true;
    const fail = () => process.nextTick(() => out.destroy(err));
    if (out.listenerCount('error') > 0) return fail();
    const onListener = (event: string | symbol) => {
      if (event !== 'error') return;
      out.off('newListener', onListener);
      fail();
    };
    out.on('newListener', onListener);
  };
  const endedEarly = () => source.errored ?? new Error('Unexpected end of form');
  // With the whole body already received, the parser may have failed the stream before we got the part.
  if (source.errored || (source.destroyed && !source.readableEnded)) {
    failWith(endedEarly());
    return out;
  }
  source.pipe(out);
  source.on('error', failWith);
  source.on('close', () => {
    if (!source.readableEnded) failWith(endedEarly());
  });
  return out;
}
