import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { and, eq, isNull } from 'drizzle-orm';
import { API_BASE, TESTIMONY_STATUSES, USERS_API_BASE, isUuid, testimonyDetailSchema, testimonyListItemSchema, type Actor } from '@app/shared';
import { records, users } from '../../db/schema';
import { httpError, refusals } from '../../errors';
import { createIntakeKey, currentIntakeKey, hasWrap, unlockWithPassphrase, unlockWithRecovery, wrapFor } from './keys';
import { NO_ADDRESS_LOG } from './public-routes';
import type { TestimonyReview } from './review';
import type { UnlockedSessions } from './sessions';

const tags = ['testimonies'];
const message = z.object({ message: z.string() });
const idParams = z.object({ id: z.string() });

/** The session an unlock belongs to: the token's `sid` when it has one, else its account and issue time. */
export function sessionOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  try {
    const claims = decodeJwt(header.slice(7).trim());
    const user = request as FastifyRequest & { user?: { sid?: string } };
    const sid = user.user?.sid ?? (typeof claims.sid === 'string' ? claims.sid : null);
    return sid ? `sid:${sid}` : `iat:${String(claims.id)}:${String(claims.iat)}`;
  } catch {
    return null;
  }
}

/** What every reviewer route needs: the reviewer check, the actor, the session's unlocked keys, a valid id. */
function context(instance: FastifyInstance, review: TestimonyReview, sessions: UnlockedSessions) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const requireReviewer = async (request: FastifyRequest, reply: FastifyReply) => {
    await instance.requireActor(request, reply);
    const actor = await request.getActor();
    if (!actor) throw httpError.unauthorized();
    if (!(await review.isReviewer(actor))) throw httpError.forbidden('Only reviewers can do this');
  };
  const actorOf = async (request: FastifyRequest): Promise<Actor> => (await request.getActor())!;
  const keysOf = async (request: FastifyRequest) => {
    const keys = sessions.keys(sessionOf(request) ?? '', (await actorOf(request)).id);
    if (!keys) throw httpError.forbidden('Unlock the intake key with your passphrase first');
    return keys;
  };
  const id = (request: { params: { id: string } }) => {
    if (!isUuid(request.params.id)) throw httpError.notFound('No such testimony');
    return request.params.id;
  };
  return { app, actorOf, keysOf, id, base: { preHandler: requireReviewer, logSerializers: NO_ADDRESS_LOG } };
}

export function registerReviewRoutes(instance: FastifyInstance, review: TestimonyReview, sessions: UnlockedSessions) {
  registerKeyRoutes(instance, review, sessions);
  registerQueueRoutes(instance, review, sessions);
  registerReviewWrites(instance, review, sessions);
}

/** The intake key: its state, making it, unlocking and locking it, giving it to another reviewer. */
function registerKeyRoutes(instance: FastifyInstance, review: TestimonyReview, sessions: UnlockedSessions) {
  const { app, actorOf, keysOf, base } = context(instance, review, sessions);

  app.get(
    `${API_BASE}/testimonies/key`,
    { ...base, schema: { tags, summary: 'Whether there is an intake key, whether you have a wrap of it, whether your session unlocked it', response: { 200: z.object({ exists: z.boolean(), wrapped: z.boolean(), unlocked: z.boolean() }), ...refusals(401, 403) } } },
    async (request) => {
      const actor = await actorOf(request);
      return { exists: Boolean(await currentIntakeKey(app.db)), wrapped: await hasWrap(app.db, actor.id), unlocked: Boolean(sessions.keys(sessionOf(request) ?? '', actor.id)) };
    },
  );

  app.post(
    `${API_BASE}/testimonies/key`,
    {
      ...base,
      schema: {
        tags,
        summary: 'Create the intake key (when there is none; a super may replace it), wrapped under your passphrase; answers the recovery key once',
        body: z.object({ passphrase: z.string(), replace: z.boolean().optional() }),
        response: { 201: z.object({ recoveryKey: z.string() }), ...refusals(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const actor = await actorOf(request);
      if ((await currentIntakeKey(app.db)) && !(request.body.replace && actor.role === 'super')) throw httpError.conflict({ message: 'There is already an intake key' });
      const { keyId, recoveryKey } = await createIntakeKey(app.db, actor.id, request.body.passphrase);
      await app.audit.append({ actor, action: 'testimony.key-created', subject: `intake-key:${keyId}`, changes: {} });
      reply.code(201);
      return { recoveryKey };
    },
  );

  app.post(
    `${API_BASE}/testimonies/unlock`,
    {
      ...base,
      schema: {
        tags,
        summary: 'Unlock the intake key for this session with your passphrase (or a recovery key, then wrapped under the new passphrase given)',
        body: z.object({ passphrase: z.string().max(1000), recoveryKey: z.string().max(200).optional() }),
        response: { 200: message, ...refusals(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const session = sessionOf(request);
      if (!session) throw httpError.unauthorized();
      const { passphrase, recoveryKey } = request.body;
      const keys = recoveryKey ? await unlockWithRecovery(app.db, recoveryKey) : await unlockWithPassphrase(app.db, actor.id, passphrase);
      if (!keys.size) throw httpError.badRequest(recoveryKey ? { recoveryKey: 'This recovery key opens no intake key' } : { passphrase: 'This passphrase does not unlock the intake key' });
      if (recoveryKey) await wrapFor(app.db, actor.id, keys, passphrase);
      sessions.set(session, actor.id, keys);
      await app.audit.append({ actor, action: recoveryKey ? 'testimony.key-recovered' : 'testimony.unlock', subject: 'intake-key', changes: {} });
      return { message: 'Unlocked' };
    },
  );

  app.post(`${API_BASE}/testimonies/lock`, { ...base, schema: { tags, summary: 'Forget the unlocked key of this session', response: { 200: message, ...refusals(401, 403) } } }, async (request) => {
    sessions.forget(sessionOf(request) ?? '');
    return { message: 'Locked' };
  });

  app.post(
    `${API_BASE}/testimonies/key/share`,
    {
      ...base,
      schema: { tags, summary: 'Give another reviewer the intake key, wrapped under a passphrase you agree with them (they change it by unlocking)', body: z.object({ userId: z.string(), passphrase: z.string() }), response: { 200: message, ...refusals(400, 401, 403, 404, 413, 415) } },
    },
    async (request) => {
      const keys = await keysOf(request);
      const [target] = isUuid(request.body.userId) ? await app.db.select().from(users).where(eq(users.id, request.body.userId)) : [];
      if (!target || !(await review.isReviewer({ id: target.id, role: target.role as Actor['role'] }))) throw httpError.notFound('No such reviewer');
      await wrapFor(app.db, target.id, keys, request.body.passphrase);
      await app.audit.append({ actor: await actorOf(request), action: 'testimony.key-shared', subject: `user:${target.id}`, changes: {} });
      return { message: 'Shared' };
    },
  );
}

/** The queue, one testimony decrypted, and its files. */
function registerQueueRoutes(instance: FastifyInstance, review: TestimonyReview, sessions: UnlockedSessions) {
  const { app, keysOf, id, base } = context(instance, review, sessions);

  app.get(
    `${API_BASE}/testimonies`,
    { ...base, schema: { tags, summary: 'The reviewers’ queue: metadata only, newest first', querystring: z.object({ status: z.enum(TESTIMONY_STATUSES).optional() }), response: { 200: z.array(testimonyListItemSchema), ...refusals(400, 401, 403) } } },
    async (request) => review.queue(request.query.status),
  );

  app.get(
    `${API_BASE}/testimonies/:id`,
    { ...base, schema: { tags, summary: 'One testimony, decrypted with the unlocked key', params: idParams, response: { 200: testimonyDetailSchema, ...refusals(401, 403, 404) } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return review.detail(id(request), await keysOf(request));
    },
  );

  app.get(
    `${API_BASE}/testimonies/:id/files/:fileId`,
    { ...base, schema: { tags, summary: 'One file of a testimony, decrypted as it streams', params: z.object({ id: z.string(), fileId: z.string() }), response: { ...refusals(401, 403, 404) } } },
    async (request, reply) => {
      if (!isUuid(request.params.fileId)) throw httpError.notFound('No such file');
      const file = await review.file(id(request), request.params.fileId, await keysOf(request));
      reply.header('cache-control', 'no-store').header('content-disposition', 'attachment').type(file.type);
      return reply.send(file.stream as never);
    },
  );
}

/** Questions to the witness, the states, and a super's grant or withdrawal of reviewing. */
function registerReviewWrites(instance: FastifyInstance, review: TestimonyReview, sessions: UnlockedSessions) {
  const { app, actorOf, keysOf, id, base } = context(instance, review, sessions);

  app.post(
    `${API_BASE}/testimonies/:id/messages`,
    { ...base, schema: { tags, summary: 'Write to the witness (read with their receipt)', params: idParams, body: z.object({ text: z.string().trim().min(1, { error: 'Write something' }).max(20_000) }), response: { 201: message, ...refusals(400, 401, 403, 404, 413, 415) } } },
    async (request, reply) => {
      await keysOf(request);
      await review.write(id(request), request.body.text, await actorOf(request));
      reply.code(201);
      return { message: 'Sent' };
    },
  );

  app.put(
    `${API_BASE}/testimonies/:id/status`,
    {
      ...base,
      schema: { tags, summary: 'Move a testimony along the queue (used: with the record made from it)', params: idParams, body: z.object({ status: z.enum(TESTIMONY_STATUSES), recordId: z.string().optional() }), response: { 200: message, ...refusals(400, 401, 403, 404, 413, 415) } },
    },
    async (request) => {
      const { status, recordId } = request.body;
      if (recordId) {
        const [record] = isUuid(recordId) ? await app.db.select({ id: records.id }).from(records).where(and(eq(records.id, recordId), isNull(records.deletedAt))) : [];
        if (!record) throw httpError.badRequest({ recordId: 'No such record' });
      }
      await review.setStatus(id(request), status, await actorOf(request), recordId);
      return { message: 'Saved' };
    },
  );

  app.put(
    `${USERS_API_BASE}/:id/reviewer`,
    {
      preHandler: app.requireRole('super'),
      schema: { tags: ['users'], summary: 'Grant (true) or withdraw (false) reviewing testimonies, or follow the role (null); super only', params: idParams, body: z.object({ reviewer: z.boolean().nullable() }), response: { 200: message, ...refusals(400, 401, 403, 404, 413, 415) } },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw httpError.notFound('No such user');
      const [before] = await app.db.select({ reviewer: users.reviewer }).from(users).where(eq(users.id, request.params.id));
      if (!before) throw httpError.notFound('No such user');
      await app.db.transaction(async (tx) => {
        await tx.update(users).set({ reviewer: request.body.reviewer, updatedAt: new Date() }).where(eq(users.id, request.params.id));
        await app.audit.append({ actor: await actorOf(request), action: 'user.reviewer', subject: `user:${request.params.id}`, changes: { reviewer: { before: before.reviewer, after: request.body.reviewer } } }, tx);
      });
      if (request.body.reviewer === false) sessions.forgetUser(request.params.id);
      return { message: 'Saved' };
    },
  );
}
