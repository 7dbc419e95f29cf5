import {
  approvalSortKeys,
  pagingMessages,
  type PendingApproval,
  type PendingApprovalsPage,
  type PendingApprovalsResponse,
} from '@pra/contracts';
import { getPendingApprovals } from '@pra/contracts/endpoints/approvals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { allPages, referenceRows } from '../../../test/support/paging';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';

// Approvals paged by the server answer, page after page, exactly the rows the whole list answered
// filtered and sorted as the browser did, and a BRM sees only its organizations' items.

const firstNames = ['Ann', 'bob', 'Carla', '', 'ann', 'Dmitri'];
const lastNames = ['Smith', 'jones', 'SMITHERS', 'Brown', '', 'Okafor'];
const types = ['New Account', 'Add Access', 'Remove Access'] as const;

const filterTexts = (a: PendingApproval) => {
  const person = a.firstname && a.lastname ? `${a.firstname} ${a.lastname}` : a.email;
  return [a.firstname, a.lastname, person, a.name, a.email, a.org];
};
const sortValues: Record<(typeof approvalSortKeys)[number], (a: PendingApproval) => string | number> = {
  firstname: (a) => a.firstname,
  lastname: (a) => a.lastname,
  email: (a) => a.email,
  type: (a) => a.type,
  org: (a) => a.org,
  created: (a) => Date.parse(a.created),
};
const filters = ['', 'ann', 'SMITH', 'ann smith', 'beta', 'vend', 'x.example', '%', 'zzz-none'];

describe.each(testDatabaseKinds)('Approvals pages on %s', (kind) => {
  let t: TestApp;
  const c: Record<string, TestClient> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    const orgs = [
      await addOrganization(t, 'Alpha Care'),
      await addOrganization(t, 'Beta Labs'),
      await addOrganization(t, 'Gamma Health'),
    ];
    const brm = await createAccount(t, { username: 'brmapprovals', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, orgs[0]!);
    await assignBrm(t, brm, orgs[1]!);
    await createAccount(t, { username: 'adminapprovals', type: 'employee', isAdmin: true });
    const vendors = [
      await createAccount(t, { username: 'vendann' }),
      await createAccount(t, { username: 'vendzed' }),
    ];
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let n = 0; n < 26; n++) {
      const type = types[n % 3]!;
      const { id } = await t.ctx.db
        .insertInto('requests')
        .values({
          type,
          status: 'pending',
          beneficiary_id: type === 'New Account' ? null : vendors[n % 2]!,
          first_name: firstNames[n % firstNames.length]!,
          last_name: lastNames[n % lastNames.length]!,
          email: `r${n}@${n % 2 ? 'x' : 'y'}.example`,
          // Three requests at a time share the same instant (ties keep the list's order).
          created_at: new Date(base + Math.floor(n / 3) * 60_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const held = n % 4 === 0 ? [orgs[n % 3]!, orgs[(n + 1) % 3]!] : [orgs[n % 3]!];
      for (const organization of held) {
        await t.ctx.db
          .insertInto('request_items')
          .values({
            request_id: id,
            organization_id: organization,
            operation: type === 'Remove Access' ? 'Remove' : 'Add',
            status: 'pending',
            expires_at: new Date(Date.now() + 14 * 86_400_000),
          })
          .execute();
      }
    }
    c.brm = await signInAs(t, 'brmapprovals');
    c.admin = await signInAs(t, 'adminapprovals');
  });
  afterAll(async () => t?.close());

  for (const who of ['brm', 'admin'] as const) {
    it(`${who}: every filter and sort answers the unpaged list's rows, page by page`, async () => {
      const whole = await c[who]!.call(getPendingApprovals);
      expect(whole.statusCode).toBe(200);
      const everything = whole.json<PendingApprovalsResponse>().pendingApprovals;
      expect(everything.length).toBeGreaterThan(10);
      for (const filter of filters) {
        const unsorted = await allPages<PendingApproval>(c[who]!, getPendingApprovals, { filter }, 5);
        expect(unsorted.rows).toEqual(referenceRows(everything, filter, filterTexts, () => 0, 'asc'));
        for (const sort of approvalSortKeys) {
          for (const direction of ['asc', 'desc'] as const) {
            const expected = referenceRows(everything, filter, filterTexts, sortValues[sort], direction);
            const answer = await allPages<PendingApproval>(
              c[who]!,
              getPendingApprovals,
              { filter, sort, direction },
              4,
            );
            expect(answer.total).toBe(everything.length);
            expect(answer.matching).toBe(expected.length);
            expect(answer.rows, `${filter} ${sort} ${direction}`).toEqual(expected);
          }
        }
      }
    });
  }

  it('keeps a BRM to its organizations on every page and filter', async () => {
    for (const filter of ['', 'gamma', 'ann']) {
      const answer = await allPages<PendingApproval>(c.brm!, getPendingApprovals, { filter, sort: 'org' }, 3);
      expect(answer.rows.filter((a) => a.org === 'Gamma Health')).toEqual([]);
      expect(answer.rows.every((a) => a.canDecide)).toBe(true);
    }
    const gamma = await c.brm!.call(getPendingApprovals, { query: { filter: 'Gamma Health' } });
    expect(gamma.json<PendingApprovalsPage>()).toMatchObject({ items: [], matching: 0 });
  });

  it('keeps the count-only answer, and the spec list without paging parameters', async () => {
    const whole = (await c.brm!.call(getPendingApprovals)).json<PendingApprovalsResponse>();
    const count = await c.brm!.call(getPendingApprovals, { query: { getCountOnly: 'true' } });
    expect(count.json()).toEqual({ count: whole.pendingApprovals.length });
    const first = (
      await c.brm!.call(getPendingApprovals, { query: { page: 1 } })
    ).json<PendingApprovalsPage>();
    expect(first).toMatchObject({ page: 1, size: 5, total: whole.pendingApprovals.length });
    expect(first.items).toEqual(whole.pendingApprovals.slice(0, 5));
  });

  it('refuses bad paging input with 400 and a message naming it', async () => {
    for (const [query, message] of [
      [{ page: '-1' }, pagingMessages.page],
      [{ size: '1000' }, pagingMessages.size],
      [{ sort: 'comment' }, pagingMessages.sort(approvalSortKeys)],
      [{ direction: 'sideways' }, pagingMessages.direction],
    ] as const) {
      const res = await c.brm!.call(getPendingApprovals, { query: query as never });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain(message);
    }
  });
});
