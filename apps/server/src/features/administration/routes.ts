import { roleName } from '@pra/contracts';
import { asksForPage, pageRequest } from '@pra/contracts/paging';
import * as calls from '@pra/contracts/endpoints/administration';
import type { FastifyPluginAsync } from 'fastify';
import type { Account } from '../../platform/db-schema';
import type { AppContext } from '../../platform/app-context';
import { sendChunks, sendDownload } from '../../http/csv-report';
import { chooseEncoding } from '../../platform/content-encoding';
import { endpointRouter } from '../../http/endpoint-routes';
import { readMaintenanceFlag } from '../../store/settings';
import { hashPassword } from '../../identity/passwords';
import type { Tx } from '../../platform/db';
import type { Actor } from './actor';
import { auditExport } from './audit-export';
import { auditPage } from './audit-trail';
import { countUndeliveredMail, listUndeliveredMail, pageUndeliveredMail } from '../../store/outbox';
import {
  addDomain,
  changeOrganization,
  createOrganization,
  removeDomain,
  requireOrganization,
} from './organizations';
import { changePerson, createPerson, removePerson, requireEmployee, setManagedOrganizations } from './people';
import { countEmployees, listEmployees, pageEmployees, setPasswordHash } from '../../store/accounts';
import { countOrganizations, listOrganizations, pageOrganizations } from '../../store/organizations';
import { answerPage } from '../../http/paging';
import { startKeyGraces } from '../../identity/governance/passkey-grace';
import { mailSite } from '../../identity/mail-templates';
import { resendMail } from './resend-mail';
import { directoryStatus, retryProvisioning } from './directory-status';
import { readAdminSystemMessage, setMaintenance, writeSystemMessage } from './settings';
import { createServiceToken, listTokens, revokeToken, revokeTokensOfFormerAdmin } from './service-tokens';

function actorOf(request: { account: Account; ip: string }): Actor {
  const { account } = request;
  return { id: account.id, username: account.username, clientAddress: request.ip };
}

/** The admin lists' page size when the query names none. */
const ADMIN_PAGE_SIZE = 25;

/** The admin API: organizations, people, system message, maintenance, mail, directory, audit trail. */
export const administrationRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const route = endpointRouter(app, ctx);
  // Standalone's built-in IdP: people added here sign in with the demo password, as the demo
  // BRMs do (only when DEMO_PASSWORD is set; production employees sign in at the hospital's IdP).
  const demoPassword =
    ctx.config.isStandalone && ctx.config.idp === 'builtin' ? ctx.config.DEMO_PASSWORD : undefined;
  const inTx = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => ctx.db.transaction().execute(work);

  // The admin lists answer one page (paging.ts) when asked for one, their whole list otherwise.
  type OrganizationRow = Awaited<ReturnType<typeof listOrganizations>>[number];
  const toOrganization = (o: OrganizationRow) => ({
    id: o.id,
    name: o.name,
    roleName: roleName(o.name),
    isActive: o.is_active,
    domains: o.domains,
    brms: o.brms,
    riskTier: o.risk_tier,
    contractEndsOn: o.contract_ends_on,
  });

  // A filter alone keeps answering every match (the screens' and scripts' call before paging).
  route(calls.listOrganizations, {}, async (request) => {
    const { filter, ...paging } = request.query;
    if (!asksForPage(paging))
      return { organizations: (await listOrganizations(ctx.db, filter)).map(toOrganization) };
    const asked = pageRequest(request.query, ADMIN_PAGE_SIZE);
    return answerPage(
      asked,
      await countOrganizations(ctx.db, asked.filter),
      (offset, limit) =>
        pageOrganizations(ctx.db, { filter: asked.filter, direction: asked.direction, offset, limit }),
      toOrganization,
    );
  });

  route(calls.createOrganization, {}, async (request) => {
    const org = await inTx((tx) => createOrganization(tx, actorOf(request), request.body));
    return { success: true, id: org.id };
  });

  route(calls.changeOrganization, {}, async (request) => {
    const time = { now: ctx.clock.now(), zone: ctx.config.PORTAL_TIME_ZONE };
    const changed = await inTx(async (tx) => {
      const result = await changeOrganization(
        tx,
        actorOf(request),
        { id: request.params.id },
        request.body,
        time,
      );
      // A raised tier starts the grace of its vendors without a key now; a lowered one forgets it (GOVERNANCE.md §7.4).
      if (request.body.riskTier !== undefined) await startKeyGraces(tx, mailSite(ctx), result.id, time.now);
      return result;
    });
    return { success: true as const, grantsPastContractEnd: changed.grantsPastContractEnd };
  });

  route(calls.addDomain, {}, async (request) => {
    await inTx(async (tx) => {
      const org = await requireOrganization(tx, { id: request.params.id });
      await addDomain(tx, actorOf(request), org, request.body.domain);
    });
    return { success: true };
  });

  route(calls.removeDomain, {}, async (request) => {
    await inTx(async (tx) => {
      const org = await requireOrganization(tx, { id: request.params.id });
      await removeDomain(tx, actorOf(request), org, request.params.domain);
    });
    return { success: true };
  });

  type PersonRow = Awaited<ReturnType<typeof listEmployees>>[number];
  const toPerson = (p: PersonRow) => ({
    id: p.id,
    username: p.username,
    givenName: p.given_name,
    familyName: p.family_name,
    email: p.email,
    isEmployeeBrm: p.is_employee_brm,
    isAdmin: p.is_admin,
    isAuditor: p.is_auditor,
    status: p.status,
    organizations: p.organizations ?? [],
    leavingOn: p.leaving_on,
  });

  route(calls.listPeople, {}, async (request) => {
    if (!asksForPage(request.query)) return { people: (await listEmployees(ctx.db)).map(toPerson) };
    const asked = pageRequest(request.query, ADMIN_PAGE_SIZE);
    return answerPage(
      asked,
      await countEmployees(ctx.db, asked.filter),
      (offset, limit) =>
        pageEmployees(ctx.db, {
          filter: asked.filter,
          sort: asked.sort ?? 'username',
          direction: asked.direction,
          offset,
          limit,
        }),
      toPerson,
    );
  });

  route(calls.createPerson, {}, async (request) => {
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
  });

  route(calls.changePerson, {}, async (request) => {
    const { organizations, ...change } = request.body;
    await inTx(async (tx) => {
      const person = await requireEmployee(tx, { id: request.params.id });
      // Organizations first: a BRM flag switched off then finds them already handed over.
      if (organizations) await setManagedOrganizations(tx, actorOf(request), person, organizations);
      await changePerson(tx, actorOf(request), await requireEmployee(tx, { id: person.id }), change);
      if (change.isAdmin === false)
        await revokeTokensOfFormerAdmin(tx, actorOf(request), person, ctx.clock.now());
    });
    return { success: true };
  });

  route(calls.removePerson, {}, async (request) => {
    await inTx(async (tx) => {
      const person = await requireEmployee(tx, { id: request.params.id });
      await removePerson(tx, actorOf(request), person);
      await revokeTokensOfFormerAdmin(tx, actorOf(request), person, ctx.clock.now());
    });
    return { success: true };
  });

  route(calls.getAdminSystemMessage, {}, async () => readAdminSystemMessage(ctx.db));

  route(calls.saveSystemMessage, {}, async (request) => {
    await inTx((tx) => writeSystemMessage(tx, actorOf(request), request.body));
    return { success: true };
  });

  const maintenance = async () => ({
    maintenance: await readMaintenanceFlag(ctx.db),
    forcedBySetting: ctx.config.IIQ_MAINTENANCE,
  });
  route(calls.getMaintenance, {}, maintenance);
  route(calls.setMaintenance, {}, async (request) => {
    await inTx((tx) => setMaintenance(tx, actorOf(request), request.body.maintenance));
    return maintenance();
  });

  type MailRow = Awaited<ReturnType<typeof listUndeliveredMail>>[number];
  const toMail = (m: MailRow) => ({
    id: m.id,
    createdAt: new Date(m.created_at).toISOString(),
    recipient: m.recipient,
    subject: m.subject,
    template: m.template,
    status: m.status === 'undeliverable' ? ('undeliverable' as const) : ('pending' as const),
    attempts: m.attempts,
    lastError: m.last_error,
  });

  route(calls.listUndeliveredMail, {}, async (request) => {
    if (!asksForPage(request.query)) return { mails: (await listUndeliveredMail(ctx.db)).map(toMail) };
    const asked = pageRequest(request.query, ADMIN_PAGE_SIZE);
    return answerPage(
      asked,
      await countUndeliveredMail(ctx.db, asked.filter),
      (offset, limit) =>
        pageUndeliveredMail(ctx.db, {
          filter: asked.filter,
          sort: asked.sort,
          direction: asked.direction,
          offset,
          limit,
        }),
      toMail,
    );
  });

  route(calls.resendMail, {}, async (request) => {
    await resendMail(ctx, actorOf(request), request.params.id);
    return { success: true };
  });

  route(calls.getDirectoryStatus, {}, async () => directoryStatus(ctx));

  route(calls.retryProvisioning, {}, async (request) => {
    await retryProvisioning(ctx, actorOf(request), request.params.id);
    return { success: true };
  });

  route(calls.getAuditPage, {}, async (request) => {
    const { cursor, limit, ...filter } = request.query;
    return auditPage(ctx.db, filter, cursor, limit);
  });

  route(calls.listServiceTokens, {}, async () => ({ tokens: await listTokens(ctx.db, ctx.clock.now()) }));

  route(calls.createServiceToken, {}, async (request) => {
    const created = await inTx((tx) =>
      createServiceToken(tx, actorOf(request), request.account, request.body, ctx.clock.now()),
    );
    return {
      success: true as const,
      id: created.id,
      token: created.token,
      expiresAt: created.expiresAt.toISOString(),
    };
  });

  route(calls.revokeServiceToken, {}, async (request) => {
    await inTx((tx) => revokeToken(tx, actorOf(request), request.params.id, ctx.clock.now()));
    return { success: true };
  });

  route(calls.exportAudit, {}, async (request, reply) => {
    const fileName = `audit-${ctx.clock.now().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.csv`;
    // PostgreSQL: in a worker thread with its own connection and heap (platform/export-workers.ts),
    // compressed there when the caller accepts it. The embedded database: on long work's
    // connection, which is the only one, as text.
    if (!ctx.exportWorkers)
      return sendDownload(reply, fileName, auditExport(ctx.longWorkDb, request.query, 'csv'));
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    // The connection closing before the answer: the caller left, and its export leaves the queue.
    const left = new AbortController();
    reply.raw.once('close', () => left.abort());
    return sendChunks(
      reply,
      fileName,
      ctx.exportWorkers.run({ kind: 'audit', filter: request.query, format: 'csv', encoding }, left.signal),
      encoding,
    );
  });
};
