import { Readable } from 'node:stream';
import {
  addDomainBody,
  adminApi,
  adminSystemMessage,
  auditPage as auditPageSchema,
  auditQuery,
  changeOrganizationBody,
  changePersonBody,
  createOrganizationBody,
  mailList,
  maintenanceBody,
  maintenanceState,
  organizationList,
  organizationListQuery,
  peopleList,
  personBody,
  roleName,
  successResponse,
} from '@pra/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/app-context';
import { createGuards } from '../../http/guards';
import { readMaintenanceFlag } from '../../store/settings';
import { hashPassword } from '../../identity/passwords';
import type { Tx } from '../../platform/db';
import type { Actor } from './actor';
import { auditExport, auditPage } from './audit-trail';
import { listUndeliveredMail } from '../../store/outbox';
import {
  addDomain,
  changeOrganization,
  createOrganization,
  removeDomain,
  requireOrganization,
} from './organizations';
import { changePerson, createPerson, removePerson, requireEmployee, setManagedOrganizations } from './people';
import { listEmployees, setPasswordHash } from '../../store/accounts';
import { listOrganizations } from '../../store/organizations';
import { resendMail } from './resend-mail';
import { readAdminSystemMessage, setMaintenance, writeSystemMessage } from './settings';

const idParam = z.object({ id: z.uuid('Not a valid id.') });
const domainParam = idParam.extend({ domain: z.string().max(253) });

function actorOf(request: FastifyRequest): Actor {
  const account = request.account!;
  return { id: account.id, username: account.username, clientAddress: request.ip };
}

/** The admin API: organizations, people, system message, maintenance, mail, audit trail. */
export const administrationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const guards = createGuards(ctx);
  // Standalone's built-in IdP: people added here sign in with the demo password, as the demo
  // BRMs do (only when DEMO_PASSWORD is set; production employees sign in at the hospital's IdP).
  const demoPassword =
    ctx.config.isStandalone && ctx.config.idp === 'builtin' ? ctx.config.DEMO_PASSWORD : undefined;
  // Every admin call: signed in (401) and an admin (403), checked before anything is read (the
  // body included) or validated.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/admin/')) {
      route.onRequest = [guards.requireLogin, guards.requireAdmin];
    }
  });
  const inTx = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => ctx.db.transaction().execute(work);

  const listOrgs = async (filter?: string) => ({
    organizations: (await listOrganizations(ctx.db, filter)).map((o) => ({
      id: o.id,
      name: o.name,
      roleName: roleName(o.name),
      isActive: o.is_active,
      domains: o.domains,
      brms: o.brms,
    })),
  });

  app.get(
    adminApi.organizations,
    { schema: { querystring: organizationListQuery, response: { 200: organizationList } } },
    async (request) => listOrgs(request.query.filter),
  );

  app.post(
    adminApi.organizations,
    {
      schema: { body: createOrganizationBody, response: { 200: successResponse.extend({ id: z.string() }) } },
    },
    async (request) => {
      const org = await inTx((tx) => createOrganization(tx, actorOf(request), request.body));
      return { success: true, id: org.id };
    },
  );

  app.patch(
    adminApi.organization,
    { schema: { params: idParam, body: changeOrganizationBody, response: { 200: successResponse } } },
    async (request) => {
      await inTx((tx) => changeOrganization(tx, actorOf(request), { id: request.params.id }, request.body));
      return { success: true };
    },
  );

  app.post(
    adminApi.organizationDomains,
    { schema: { params: idParam, body: addDomainBody, response: { 200: successResponse } } },
    async (request) => {
      await inTx(async (tx) => {
        const org = await requireOrganization(tx, { id: request.params.id });
        await addDomain(tx, actorOf(request), org, request.body.domain);
      });
      return { success: true };
    },
  );

  app.delete(
    adminApi.organizationDomain,
    { schema: { params: domainParam, response: { 200: successResponse } } },
    async (request) => {
      await inTx(async (tx) => {
        const org = await requireOrganization(tx, { id: request.params.id });
        await removeDomain(tx, actorOf(request), org, request.params.domain);
      });
      return { success: true };
    },
  );

  app.get(adminApi.people, { schema: { response: { 200: peopleList } } }, async () => ({
    people: (await listEmployees(ctx.db)).map((p) => ({
      id: p.id,
      username: p.username,
      givenName: p.given_name,
      familyName: p.family_name,
      email: p.email,
      isEmployeeBrm: p.is_employee_brm,
      isAdmin: p.is_admin,
      status: p.status,
      organizations: p.organizations ?? [],
    })),
  }));

  app.post(
    adminApi.people,
    { schema: { body: personBody, response: { 200: successResponse.extend({ id: z.string() }) } } },
    async (request) => {
      const { organizations, ...person } = request.body;
      const demoHash = demoPassword ? await hashPassword(demoPassword) : null;
      const created = await inTx(async (tx) => {
        const account = await createPerson(tx, actorOf(request), person);
        if (demoHash) await setPasswordHash(tx, account.id, demoHash);
        if (organizations.length > 0)
          await setManagedOrganizations(tx, actorOf(request), account, organizations);
        return account;
      });
      return { success: true, id: created.id };
    },
  );

  app.patch(
    adminApi.person,
    { schema: { params: idParam, body: changePersonBody, response: { 200: successResponse } } },
    async (request) => {
      const { organizations, ...change } = request.body;
      await inTx(async (tx) => {
        const person = await requireEmployee(tx, { id: request.params.id });
        // Organizations first: a BRM flag switched off then finds them already handed over.
        if (organizations) await setManagedOrganizations(tx, actorOf(request), person, organizations);
        await changePerson(tx, actorOf(request), await requireEmployee(tx, { id: person.id }), change);
      });
      return { success: true };
    },
  );

  app.delete(
    adminApi.person,
    { schema: { params: idParam, response: { 200: successResponse } } },
    async (request) => {
      await inTx(async (tx) =>
        removePerson(tx, actorOf(request), await requireEmployee(tx, { id: request.params.id })),
      );
      return { success: true };
    },
  );

  app.get(adminApi.systemMessage, { schema: { response: { 200: adminSystemMessage } } }, async () =>
    readAdminSystemMessage(ctx.db),
  );

  app.put(
    adminApi.systemMessage,
    { schema: { body: adminSystemMessage.strict(), response: { 200: successResponse } } },
    async (request) => {
      await inTx((tx) => writeSystemMessage(tx, actorOf(request), request.body));
      return { success: true };
    },
  );

  const maintenance = async () => ({
    maintenance: await readMaintenanceFlag(ctx.db),
    forcedBySetting: ctx.config.IIQ_MAINTENANCE,
  });
  app.get(adminApi.maintenance, { schema: { response: { 200: maintenanceState } } }, maintenance);
  app.put(
    adminApi.maintenance,
    { schema: { body: maintenanceBody, response: { 200: maintenanceState } } },
    async (request) => {
      await inTx((tx) => setMaintenance(tx, actorOf(request), request.body.maintenance));
      return maintenance();
    },
  );

  app.get(adminApi.mail, { schema: { response: { 200: mailList } } }, async () => ({
    mails: (await listUndeliveredMail(ctx.db)).map((m) => ({
      id: m.id,
      createdAt: new Date(m.created_at).toISOString(),
      recipient: m.recipient,
      subject: m.subject,
      template: m.template,
      status: m.status === 'undeliverable' ? ('undeliverable' as const) : ('pending' as const),
      attempts: m.attempts,
      lastError: m.last_error,
    })),
  }));

  app.post(
    adminApi.mailResend,
    { schema: { params: idParam, response: { 200: successResponse } } },
    async (request) => {
      await resendMail(ctx, actorOf(request), request.params.id);
      return { success: true };
    },
  );

  app.get(
    adminApi.audit,
    { schema: { querystring: auditQuery, response: { 200: auditPageSchema } } },
    async (request) => {
      const { cursor, limit, ...filter } = request.query;
      return auditPage(ctx.db, filter, cursor, limit);
    },
  );

  app.get(
    adminApi.auditExport,
    { schema: { querystring: auditQuery.omit({ cursor: true, limit: true }) } },
    async (request, reply) => {
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      const lines = auditExport(ctx.db, request.query, 'csv');
      // The first query runs before any header is sent: its failure is an answer, not a cut.
      const first = await lines.next();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(prepend(first, lines)));
    },
  );
};

/** The lines of an export whose first chunk was already taken. */
async function* prepend(first: IteratorResult<string>, rest: AsyncGenerator<string>): AsyncGenerator<string> {
  if (!first.done) yield first.value;
  yield* rest;
}
