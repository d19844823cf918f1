import { createHash } from 'node:crypto';
import { asc, count, eq, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  API_BASE,
  campaignCountrySchema,
  campaignDefaultSchema,
  correctedRepresentativeSchema,
  letterConfirmationSchema,
  offsetPageQuerySchema,
  pageLimit,
  submittedLetterSchema,
  TOTAL_COUNT_HEADER,
} from '@app/shared';
import { campaignDefaults, representatives } from '../../db/schema';
import { AppError, httpError, refusals } from '../../errors';
import { diffFields } from '../../services/audit';
import { PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { CAMPAIGN_COUNTRIES, COUNTRY_CODES, type CountryCode } from './directory';
import { fillSiteUrl } from './letters';
import { availability, countryCodeOf } from './service';
import { MESSAGE_MAX_CHARS, MESSAGE_MIN_CHARS, submissionSchema } from './submission';
import { etagMatches } from '../../etag';

const tags = ['campaign'];

const idParams = z.object({ id: z.uuid({ error: 'Not a representative id' }) });
const tokenParams = z.object({ token: z.string().max(200) });

const representativeCorrection = z
  .strictObject({
    email: z
      .union([z.literal('').transform(() => null), z.null(), z.string().trim().pipe(z.email({ error: 'Enter a valid e-mail address or leave it empty' }).max(254))])
      .optional(),
    unreachable: z.boolean({ error: 'Must be true or false' }).optional(),
    note: z
      .union([z.null(), z.string().trim().max(500, { error: 'At most 500 characters' }).transform((v) => (v === '' ? null : v))])
      .optional(),
  })
  .refine((v) => v.email !== undefined || v.unreachable !== undefined || v.note !== undefined, { error: 'Give email, unreachable or note', path: ['message'] });

const defaultMessageBody = z.strictObject({
  message: z
    .string({ error: 'Write the default letter' })
    .trim()
    .min(MESSAGE_MIN_CHARS, { error: `At least ${MESSAGE_MIN_CHARS} characters` })
    .max(MESSAGE_MAX_CHARS, { error: `At most ${MESSAGE_MAX_CHARS} characters` }),
});

type RepresentativeRow = typeof representatives.$inferSelect;

/** A representative as the public directory shows it (office data only). */
function representativeDto(r: RepresentativeRow) {
  return { id: r.id, name: r.name, party: r.party, district: r.district, email: r.email, ...availability(r) };
}

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/** Routes of the campaign area. Registered encapsulated, so its form-body parser applies to these routes only. */
export async function campaignRoutes(app: FastifyInstance) {
  // The campaign form may post as a plain HTML form (no JavaScript) as well as JSON.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // --- Directory --------------------------------------------------------------------------------------------------

  let cached: { version: string; etag: string; body: string } | null = null;

  /** The directory JSON with its ETag, rebuilt only when a representative or default letter changed. */
  async function directory() {
    const [[reps], [defaults]] = await Promise.all([
      app.db.select({ n: count(), at: max(representatives.updatedAt) }).from(representatives),
      app.db.select({ n: count(), at: max(campaignDefaults.updatedAt) }).from(campaignDefaults),
    ]);
    const version = JSON.stringify([reps, defaults, app.config.publicUrl]);
    if (cached?.version === version) return cached;
    const [rows, letters] = await Promise.all([
      app.db.select().from(representatives).orderBy(asc(representatives.country), asc(representatives.province), asc(representatives.district)),
      app.db.select().from(campaignDefaults),
    ]);
    const countries = COUNTRY_CODES.map((code) => {
      const provinces = new Map<string, ReturnType<typeof representativeDto>[]>();
      for (const row of rows.filter((r) => r.country === code)) {
        const list = provinces.get(row.province) ?? [];
        list.push(representativeDto(row));
        provinces.set(row.province, list);
      }
      const letter = letters.find((l) => l.country === code);
      return {
        code,
        name: CAMPAIGN_COUNTRIES[code],
        defaultMessage: letter ? fillSiteUrl(letter.message, app.config.publicUrl) : '',
        provinces: [...provinces.entries()]
          .sort(([a], [b]) => byName(a, b))
          .map(([name, list]) => ({ name, representatives: list.sort((a, b) => byName(a.district, b.district)) })),
      };
    });
    const body = JSON.stringify(countries);
    cached = { version, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    return cached;
  }

  app.get(
    `${API_BASE}/campaign/directory`,
    { schema: { tags, summary: 'Countries, provinces and representatives, with each default letter', response: { 200: z.array(campaignCountrySchema), 304: z.unknown().describe('Not modified') } } },
    async (request, reply) => {
      const { etag, body } = await directory();
      reply.header('etag', etag).header('cache-control', 'public, max-age=60, must-revalidate').header('vary', 'Accept-Encoding');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  // --- Letters ------------------------------------------------------------------------------------------------------

  app.post(
    `${API_BASE}/reports`,
    {
      schema: {
        tags,
        summary: 'Write to a representative: the letter is sent after the sender confirms by e-mail',
        response: { 201: submittedLetterSchema, ...refusals(400, 404, 409, 415, 429) },
      },
    },
    async (request, reply) => {
      if (request.isMultipart()) throw new AppError(415, { message: 'Send the letter as JSON or as a URL-encoded form' });
      if (!request.body || typeof request.body !== 'object') throw httpError.badRequest({ message: 'Write your letter' });
      const input = submissionSchema.parse(request.body);
      const row = await app.campaign.submit(input, request.ip);
      return reply.status(201).send({
        _id: row.id,
        state: row.state,
        expiresAt: row.expiresAt.toISOString(),
        notice: `We have e-mailed you a link. Your letter to ${row.representativeName} is sent only after you open it and confirm.`,
      });
    },
  );

  app.get(`${API_BASE}/reports`, async (request, reply) => {
    const query = offsetPageQuerySchema.parse(request.query);
    const limit = pageLimit(query);
    // Delivered letters are public and read far more than written: served through the public response cache.
    const offset = query.offset ?? 0;
    return app.publicCache.serve(
      request,
      reply,
      async () => {
        const { items, total } = await app.campaign.listReports(limit, offset);
        return {
          status: 200,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'cache-control': PUBLIC_CACHE_CONTROL,
            [TOTAL_COUNT_HEADER.toLowerCase()]: String(total),
            'access-control-expose-headers': TOTAL_COUNT_HEADER,
          },
          body: JSON.stringify(items),
        };
      },
      // Keyed by the values that change the answer (defaults filled in), so other parameters share its entry.
      { query: { limit, offset } },
    );
  });

  /** What the confirmation page shows; reading never changes anything (mail scanners follow links). */
  function confirmationView(row: { id: string; state: string; representativeName: string; district: string }) {
    return { _id: row.id, state: row.state, representative: { name: row.representativeName, district: row.district } };
  }

  const confirmationResponse = { 200: letterConfirmationSchema, ...refusals(400, 404, 409, 410) };
  app.get(
    `${API_BASE}/campaign/confirm/:token`,
    { schema: { tags, summary: 'What a confirmation link is for (reading it changes nothing)', response: confirmationResponse } },
    async (request, reply) => {
      const { token } = tokenParams.parse(request.params);
      const row = await app.campaign.findByToken(token);
      if (!row) throw httpError.notFound('This link is not valid, or the letter was deleted');
      reply.header('cache-control', 'no-store');
      return confirmationView(row);
    },
  );

  app.post(
    `${API_BASE}/campaign/confirm/:token`,
    { schema: { tags, summary: 'Confirm a letter: it is queued for sending', response: confirmationResponse } },
    async (request, reply) => {
      const { token } = tokenParams.parse(request.params);
      const row = await app.campaign.confirm(token);
      reply.header('cache-control', 'no-store');
      return confirmationView(row);
    },
  );

  // --- Admin corrections ----------------------------------------------------------------------------------------------

  const adminRefusals = refusals(400, 401, 403, 404);
  app.put(
    `${API_BASE}/representatives/:id`,
    {
      preHandler: app.requireRole('admin', 'super'),
      schema: { tags, summary: "Correct a representative's e-mail, reachability or note (admin, super)", response: { 200: correctedRepresentativeSchema, ...adminRefusals } },
    },
    async (request) => {
      const { id } = idParams.parse(request.params);
      const patch = representativeCorrection.parse(request.body ?? {});
      const actor = await request.getActor();
      return app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(representatives).where(eq(representatives.id, id)).for('update');
        if (!before) throw httpError.notFound('No such representative');
        const now = new Date();
        const [after] = await tx
          .update(representatives)
          .set({
            ...(patch.email !== undefined ? { email: patch.email } : {}),
            ...(patch.unreachable !== undefined ? { unreachable: patch.unreachable } : {}),
            ...(patch.note !== undefined ? { note: patch.note } : {}),
            correctedAt: now,
            updatedAt: now,
          })
          .where(eq(representatives.id, id))
          .returning();
        await app.audit.append(
          {
            actor,
            action: 'campaign.representative_corrected',
            subject: `representative:${id}`,
            changes: diffFields(before, after!, ['email', 'unreachable', 'note']),
          },
          tx,
        );
        return { ...representativeDto(after!), country: after!.country, province: after!.province, correctedAt: now.toISOString() };
      });
    },
  );

  app.put(
    `${API_BASE}/campaign/defaults/:country`,
    {
      preHandler: app.requireRole('admin', 'super'),
      schema: { tags, summary: "Change a country's default letter (admin, super)", response: { 200: campaignDefaultSchema, ...adminRefusals } },
    },
    async (request) => {
      const { country: given } = z.object({ country: z.string().max(50) }).parse(request.params);
      const country = countryCodeOf(given) as CountryCode | null;
      if (!country) throw httpError.notFound('The campaign writes to Canada (CA) or Australia (AU) only');
      const { message } = defaultMessageBody.parse(request.body ?? {});
      const actor = await request.getActor();
      return app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(campaignDefaults).where(eq(campaignDefaults.country, country));
        const now = new Date();
        await tx
          .insert(campaignDefaults)
          .values({ country, message, updatedAt: now })
          .onConflictDoUpdate({ target: campaignDefaults.country, set: { message, updatedAt: now } });
        await app.audit.append(
          {
            actor,
            action: 'campaign.default_message_changed',
            subject: `campaign:defaults:${country}`,
            changes: diffFields(before ?? null, { message }, ['message']),
          },
          tx,
        );
        return { code: country, name: CAMPAIGN_COUNTRIES[country], defaultMessage: fillSiteUrl(message, app.config.publicUrl) };
      });
    },
  );
}
