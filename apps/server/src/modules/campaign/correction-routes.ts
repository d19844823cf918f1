import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API_BASE, campaignDefaultSchema, correctedRepresentativeSchema } from '@app/shared';
import { campaignDefaults, representatives } from '../../db/schema';
import { httpError, refusals } from '../../errors';
import { diffFields } from '../../services/audit';
import { CAMPAIGN_COUNTRIES, type CountryCode } from './directory';
import { fillSiteUrl } from './letters';
import { countryCodeOf, representativeDto } from './representatives';
import { MESSAGE_MAX_CHARS, MESSAGE_MIN_CHARS } from './submission';

const tags = ['campaign'];
const idParams = z.object({ id: z.uuid({ error: 'Not a representative id' }) });

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

/** Admins' corrections of the directory (a representative's e-mail, reachability, note) and of the default letters. */
export function registerCorrectionRoutes(app: FastifyInstance) {
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
