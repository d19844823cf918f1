import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, testimonyMessageSchema, testimonyReceiptSchema } from '@app/shared';
import { AppError, refusals } from '../../errors';
import { asClientError } from '../records/body';
import type { TestimonyAbuse } from './abuse';
import { parseEnvelope, type Draft, type TestimonyService } from './service';
import { receiptPage, submittedPage, wantsPage, type PageLanguage } from './page';

/**
 * The witness's routes. None logs the sender's address: the request lines carry the method and address only
 * (`logSerializers`), and the rate limits see a keyed hash of it.
 */
export const NO_ADDRESS_LOG = { req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url?.split('?')[0] }) };

const tags = ['testimonies'];
const MULTIPART = ['multipart/form-data'];

interface Received {
  fields: Record<string, string | string[]>;
  draft: Draft | null;
}

/** Reads a multipart body: fields kept, files sealed into `draft` as they stream (made when the first file comes). */
async function receive(request: FastifyRequest, service: TestimonyService, makeDraft: () => Promise<Draft>, beforeFile: (fields: Received['fields']) => Promise<void>): Promise<Received> {
  const fields: Received['fields'] = {};
  let draft: Draft | null = null;
  try {
    const parts = request.parts({ limits: { fileSize: service.limits.maxFileBytes, files: 20, fields: 30, fieldSize: 60_000 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = String(part.value ?? '');
        const before = fields[part.fieldname];
        fields[part.fieldname] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
        continue;
      }
      // An empty file input of a form sent without script arrives as a file part with no name and no bytes.
      if (!part.filename) {
        part.file.resume();
        continue;
      }
      if (!draft) {
        await beforeFile(fields);
        draft = await makeDraft();
      }
      await service.addFile(draft, { field: 'files', filename: part.filename, stream: part.file });
    }
  } catch (err) {
    if (draft) await service.abort(draft);
    // A broken form (busboy's plain Errors, a wrong content type) is the sender's: 400, never 500.
    throw err instanceof AppError ? err : asClientError(err);
  }
  return { fields, draft };
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function registerPublicRoutes(instance: FastifyInstance, service: TestimonyService, abuse: TestimonyAbuse) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // Debug and trace lines name request headers (@fastify/multipart logs them, X-Forwarded-For among them): never here.
  const logLevel = (['trace', 'debug'].includes(app.log.level) ? 'info' : app.log.level) as 'info';

  app.get(
    `${API_BASE}/testimonies/challenge`,
    {
      logSerializers: NO_ADDRESS_LOG,
      logLevel,
      schema: {
        tags,
        summary: 'An ALTCHA proof-of-work challenge for the testimony form',
        response: { 200: z.object({ algorithm: z.string(), challenge: z.string(), salt: z.string(), signature: z.string(), maxnumber: z.number() }), ...refusals(429) },
      },
    },
    async (request, reply) => {
      await abuse.challenges.consume(abuse.subject(request.ip));
      reply.header('cache-control', 'no-store');
      const challenge = await abuse.challenge();
      return { ...challenge, maxnumber: challenge.maxnumber ?? 50_000 };
    },
  );
  registerSubmission(instance, service, abuse);
  registerReceipt(instance, service, abuse);
}

/** POST /testimonies: the form, with or without script. */
function registerSubmission(instance: FastifyInstance, service: TestimonyService, abuse: TestimonyAbuse) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // Debug and trace lines name request headers (@fastify/multipart logs them, X-Forwarded-For among them): never here.
  const logLevel = (['trace', 'debug'].includes(app.log.level) ? 'info' : app.log.level) as 'info';
  const language = (request: FastifyRequest): PageLanguage => (String((request.query as { lang?: string })?.lang ?? '') === 'am' ? 'am' : 'en');

  app.post(
    `${API_BASE}/testimonies`,
    {
      logSerializers: NO_ADDRESS_LOG,
      logLevel,
      schema: {
        tags,
        summary: 'Send a testimony (multipart: statement, happenedOn, region, zone, woreda, place, people, contact, consent, files, altcha)',
        description: 'Answers 201 { receipt }, or an HTML page with the receipt when the form was sent by a browser without script.',
        consumes: MULTIPART,
        response: { 201: z.object({ receipt: z.string() }), ...refusals(400, 413, 429) },
      },
    },
    async (request, reply) => {
      const subject = abuse.subject(request.ip);
      let spent = false;
      let unverified = false;
      const checkAbuse = async (fields: Received['fields']) => {
        if (spent) return;
        spent = true;
        const altcha = one(fields.altcha);
        unverified = !altcha && one(fields.nojs) === '1';
        if (unverified) await abuse.unverified.consume(subject);
        else {
          await abuse.verified.consume(subject);
          await abuse.spend(altcha);
        }
      };
      const { fields, draft } = await receive(request, service, () => service.begin(), checkAbuse);
      try {
        await checkAbuse(fields);
        const envelope = parseEnvelope(fields);
        const { receipt } = await service.finish(draft ?? (await service.begin()), envelope, unverified);
        reply.code(201);
        if (wantsPage(request)) return reply.type('text/html; charset=utf-8').send(submittedPage(language(request), receipt, app.config.ONION_ADDRESS) as never);
        return { receipt };
      } catch (err) {
        if (draft) await service.abort(draft);
        if (wantsPage(request) && err instanceof AppError) return sendErrorPage(reply, request, err, language(request));
        throw err;
      }
    },
  );
}

/** POST /testimonies/receipt: the witness reads the questions and answers them. */
function registerReceipt(instance: FastifyInstance, service: TestimonyService, abuse: TestimonyAbuse) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // Debug and trace lines name request headers (@fastify/multipart logs them, X-Forwarded-For among them): never here.
  const logLevel = (['trace', 'debug'].includes(app.log.level) ? 'info' : app.log.level) as 'info';
  const language = (request: FastifyRequest): PageLanguage => (String((request.query as { lang?: string })?.lang ?? '') === 'am' ? 'am' : 'en');

  app.post(
    `${API_BASE}/testimonies/receipt`,
    {
      logSerializers: NO_ADDRESS_LOG,
      logLevel,
      schema: {
        tags,
        summary: "A witness reads the reviewers' questions with the receipt (JSON { receipt }), or answers them (multipart: receipt, reply, files)",
        response: { 200: z.object({ status: z.string(), messages: z.array(testimonyMessageSchema) }), ...refusals(400, 404, 413, 429) },
      },
    },
    async (request, reply) => {
      const subject = abuse.subject(request.ip);
      try {
        const wait = await abuse.wrongReceipts.blockedFor(subject);
        if (wait > 0) throw new AppError(429, { message: 'Too many wrong receipts from here: wait a while and try again' }, { 'retry-after': String(wait) });
        let receiptField: unknown;
        let received: Received | null = null;
        if (request.isMultipart()) {
          let opened: Awaited<ReturnType<TestimonyService['openReceipt']>> = null;
          received = await receive(
            request,
            service,
            () => service.draftFor(opened!.row),
            async (fields) => {
              opened = await openOrCount(service, abuse, subject, fields.receipt);
            },
          );
          receiptField = one(received.fields.receipt);
        } else receiptField = (request.body as { receipt?: unknown } | undefined)?.receipt;
        const opened = await openOrCount(service, abuse, subject, receiptField);
        const replyText = String(one(received?.fields.reply) ?? '').trim().slice(0, 20_000);
        if (replyText || received?.draft) await service.witnessReply(opened.row, replyText, received?.draft ?? null);
        const view = await service.witnessView((await service.row(opened.row.id))!, opened.witnessKey);
        if (wantsPage(request)) return reply.type('text/html; charset=utf-8').send(receiptPage(language(request), view, String(receiptField), app.config.ONION_ADDRESS) as never);
        return view;
      } catch (err) {
        if (wantsPage(request) && err instanceof AppError) return sendErrorPage(reply, request, err, language(request));
        throw err;
      }
    },
  );
}

async function openOrCount(service: TestimonyService, abuse: TestimonyAbuse, subject: string, value: unknown) {
  const parsed = testimonyReceiptSchema.safeParse({ receipt: Array.isArray(value) ? value[0] : value });
  if (!parsed.success) throw new AppError(400, { receipt: parsed.error.issues[0]?.message ?? 'A receipt is 16 digits' });
  const opened = await service.openReceipt(parsed.data.receipt);
  if (!opened) {
    await abuse.wrongReceipts.record(subject);
    throw new AppError(404, { receipt: 'No testimony has this receipt', message: 'No testimony has this receipt' });
  }
  return opened;
}

async function sendErrorPage(reply: FastifyReply, request: FastifyRequest, err: AppError, lang: PageLanguage) {
  const { errorPage } = await import('./page');
  for (const [name, value] of Object.entries(err.headers ?? {})) reply.header(name, value);
  return reply.code(err.statusCode).type('text/html; charset=utf-8').send(errorPage(lang, err.body as Record<string, string>, request.url));
}
