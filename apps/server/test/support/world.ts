import type { RequestStatus, RequestType } from '../../src/platform/db-schema';
import type { TestApp } from './test-app';

/** An organization with its email domains; returns its id. */
export async function addOrganization(
  t: TestApp,
  name: string,
  domains: string[] = [],
  isActive = true,
): Promise<string> {
  const { id } = await t.ctx.db
    .insertInto('organizations')
    .values({ name, is_active: isActive })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (domains.length > 0) {
    await t.ctx.db
      .insertInto('organization_domains')
      .values(domains.map((domain) => ({ organization_id: id, domain })))
      .execute();
  }
  return id;
}

export async function assignBrm(t: TestApp, accountId: string, organizationId: string): Promise<void> {
  await t.ctx.db
    .insertInto('brm_assignments')
    .values({ account_id: accountId, organization_id: organizationId })
    .execute();
}

/**
 * A request with one item per entry ([organization id, item status]), written directly; returns
 * its id. Access requests name the beneficiary account when given.
 */
export async function addRequest(
  t: TestApp,
  type: RequestType,
  items: [string, RequestStatus][],
  options: { status?: RequestStatus; beneficiaryId?: string } = {},
): Promise<string> {
  const { id } = await t.ctx.db
    .insertInto('requests')
    .values({
      type,
      status: options.status ?? 'pending',
      requester_id: options.beneficiaryId ?? null,
      beneficiary_id: options.beneficiaryId ?? null,
      first_name: 'Reg',
      last_name: 'Istrant',
      email: `r${Math.random()}@x.example`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.ctx.db
    .insertInto('request_items')
    .values(
      items.map(([organizationId, status]) => ({
        request_id: id,
        organization_id: organizationId,
        operation: type === 'Remove Access' ? ('Remove' as const) : ('Add' as const),
        status,
        expires_at: new Date(t.ctx.clock.now().getTime() + 14 * 86_400_000),
      })),
    )
    .execute();
  return id;
}

/** The queued mails, oldest first. */
export async function outbox(t: TestApp, recipient?: string) {
  let query = t.ctx.db.selectFrom('outbox').selectAll().orderBy('created_at').orderBy('id');
  if (recipient) query = query.where('recipient', '=', recipient);
  return query.execute();
}

const CODE_PATTERN = /[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/;

/** The activation code of the newest approval mail to `recipient`. */
export async function activationCodeFor(t: TestApp, recipient: string): Promise<string> {
  const mails = (await outbox(t, recipient)).filter((m) => m.template === 'account-approved');
  const code = mails.at(-1)?.text_body.match(CODE_PATTERN)?.[0];
  if (!code) throw new Error(`no activation mail for ${recipient}`);
  return code;
}

export async function auditActions(t: TestApp, action: string) {
  return t.ctx.db.selectFrom('audit_events').selectAll().where('action', '=', action).execute();
}

export async function countRows(
  t: TestApp,
  table: 'accounts' | 'requests' | 'request_items' | 'outbox' | 'codes' | 'role_grants' | 'audit_events',
): Promise<number> {
  const rows = await t.ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .execute();
  return Number(rows[0]?.n ?? 0);
}
