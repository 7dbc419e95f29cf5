import { pagingMessages, type AdminOrganization, type AdminPerson } from '@pra/contracts';
import type { z } from 'zod';
import type { adminMail } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { allPages, referenceRows } from '../../../test/support/paging';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';

// The admin lists (organizations, people, mail) paged by the server answer, page after page,
// exactly the rows of their whole list filtered and sorted; without paging parameters they
// answer the whole list as before.

type AdminMail = z.infer<typeof adminMail>;
const names = ['Ann', 'bob', 'Carla', 'ann', 'Dmitri', 'Eve', 'Zoe'];
const filters = ['', 'ann', 'SMITH', 'ann smith', 'beta', 'e1', '%', '_', 'zzz-none'];

describe.each(testDatabaseKinds)('admin lists page on %s', (kind) => {
  let t: TestApp;
  let c: TestClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const orgs: string[] = [];
    for (let n = 0; n < 23; n++) {
      const domains = n % 4 === 0 ? [] : [`d${n}.${['alpha', 'beta', 'smith'][n % 3]}.example`];
      orgs.push(await addOrganization(t, `${names[n % names.length]} Org${n}`, domains, n % 5 !== 0));
    }
    await createAccount(t, { username: 'adminlists', type: 'employee', isAdmin: true });
    for (let n = 0; n < 19; n++) {
      const person = await createAccount(t, {
        username: `e${n}${n % 3 === 0 ? 'X' : 'y'}`,
        type: 'employee',
        isEmployeeBrm: n % 2 === 0,
      });
      await t.ctx.db
        .updateTable('accounts')
        .set({
          given_name: names[n % names.length]!,
          family_name: ['Smith', 'jones', 'SMITHERS', 'Brown'][n % 4]!,
          email: `e${n}@${['alpha', 'beta'][n % 2]}.example`,
        })
        .where('id', '=', person)
        .execute();
      if (n % 2 === 0) await assignBrm(t, person, orgs[n % orgs.length]!);
    }
    // Vendors are not people: they never show in the list. A removed person (terminated) stays in
    // the whole list but not in its pages (the People screen shows those still there).
    await createAccount(t, { username: 'vendorann', type: 'vendor' });
    const removed = await createAccount(t, { username: 'removedann', type: 'employee' });
    await t.ctx.db.updateTable('accounts').set({ status: 'terminated' }).where('id', '=', removed).execute();
    for (let n = 0; n < 17; n++) {
      await t.ctx.db
        .insertInto('outbox')
        .values({
          recipient: `m${n}@${['alpha', 'beta', 'smith'][n % 3]}.example`,
          subject: ['Activation', 'approval', 'Reset'][n % 3]!,
          text_body: 't',
          html_body: 'h',
          template: 'test',
          // Delivered mail and mail not tried yet are not listed.
          status: n % 4 === 0 ? 'undeliverable' : n % 7 === 0 ? 'sent' : 'pending',
          attempts: n % 6 === 5 ? 0 : 2,
          created_at: new Date(Date.UTC(2026, 0, 1, 0, n)),
        })
        .execute();
    }
    c = await signInAs(t, 'adminlists');
  });
  afterAll(async () => t?.close());

  it('organizations: every filter both ways answers the whole list’s rows; a filter alone the whole match', async () => {
    const everyone = (await c.call(admin.listOrganizations)).json<{ organizations: AdminOrganization[] }>()
      .organizations;
    expect(everyone.length).toBe(23);
    const texts = (o: AdminOrganization) => [o.name, ...o.domains];
    for (const filter of filters) {
      const alone = await c.call(admin.listOrganizations, { query: { filter } });
      const expectedAsc = referenceRows(everyone, filter, texts, (o) => o.name, 'asc');
      expect(alone.json<{ organizations: AdminOrganization[] }>().organizations).toEqual(expectedAsc);
      for (const direction of ['asc', 'desc'] as const) {
        const expected = referenceRows(everyone, filter, texts, (o) => o.name, direction);
        const answer = await allPages<AdminOrganization>(
          c,
          admin.listOrganizations,
          { filter, sort: 'name', direction },
          4,
        );
        expect(answer.total).toBe(everyone.length);
        expect(answer.matching).toBe(expected.length);
        expect(answer.rows, `${filter} ${direction}`).toEqual(expected);
      }
    }
  });

  it('people: every filter and sort answers the whole list’s rows, never a vendor nor a removed person', async () => {
    const whole = (await c.call(admin.listPeople)).json<{ people: AdminPerson[] }>().people;
    expect(whole.map((p) => p.username)).toContain('removedann');
    const everyone = whole.filter((p) => p.status !== 'terminated');
    expect(everyone.length).toBe(20);
    const texts = (p: AdminPerson) => [
      p.username,
      p.email,
      p.givenName,
      p.familyName,
      `${p.givenName} ${p.familyName}`,
    ];
    const sorts = {
      username: (p: AdminPerson) => p.username,
      givenName: (p: AdminPerson) => p.givenName,
      familyName: (p: AdminPerson) => p.familyName,
      email: (p: AdminPerson) => p.email,
    };
    for (const filter of filters) {
      for (const [sort, value] of Object.entries(sorts)) {
        for (const direction of ['asc', 'desc'] as const) {
          const expected = referenceRows(everyone, filter, texts, value, direction);
          const answer = await allPages<AdminPerson>(c, admin.listPeople, { filter, sort, direction }, 6);
          expect(answer.total).toBe(everyone.length);
          expect(answer.matching).toBe(expected.length);
          expect(answer.rows, `${filter} ${sort} ${direction}`).toEqual(expected);
        }
      }
    }
    const vendors = await allPages<AdminPerson>(c, admin.listPeople, { filter: 'vendorann' }, 10);
    expect(vendors.rows).toEqual([]);
    const removed = await allPages<AdminPerson>(c, admin.listPeople, { filter: 'removedann' }, 10);
    expect(removed.rows).toEqual([]);
  });

  it('mail: newest first without a sort, every filter and sort as the whole list', async () => {
    const everyone = (await c.call(admin.listUndeliveredMail)).json<{ mails: AdminMail[] }>().mails;
    expect(everyone.length).toBe(13);
    const texts = (m: AdminMail) => [m.recipient, m.subject];
    for (const filter of filters) {
      const newest = await allPages<AdminMail>(c, admin.listUndeliveredMail, { filter }, 5);
      expect(newest.rows).toEqual(referenceRows(everyone, filter, texts, () => 0, 'asc'));
      const sorts = {
        createdAt: (m: AdminMail) => m.createdAt,
        recipient: (m: AdminMail) => m.recipient,
        subject: (m: AdminMail) => m.subject,
      };
      for (const [sort, value] of Object.entries(sorts)) {
        for (const direction of ['asc', 'desc'] as const) {
          const expected = referenceRows(everyone, filter, texts, value, direction);
          const answer = await allPages<AdminMail>(
            c,
            admin.listUndeliveredMail,
            { filter, sort, direction },
            5,
          );
          expect(answer.total).toBe(everyone.length);
          expect(answer.matching).toBe(expected.length);
          expect(answer.rows, `${filter} ${sort} ${direction}`).toEqual(expected);
        }
      }
    }
  });

  it('answers the last page past the end, and refuses bad paging input with 400', async () => {
    const past = await c.call(admin.listPeople, { query: { page: 99, size: 8 } });
    expect(past.json()).toMatchObject({ page: 3, size: 8, total: 20, matching: 20 });
    for (const [endpoint, query, message] of [
      [admin.listOrganizations, { sort: 'brms' }, pagingMessages.sort(['name'])],
      [admin.listPeople, { size: '101' }, pagingMessages.size],
      [admin.listUndeliveredMail, { page: '0' }, pagingMessages.page],
      [admin.listUndeliveredMail, { filter: 'a\u0000' }, pagingMessages.filter],
    ] as const) {
      const res = await c.call(endpoint as never, { query: query as never });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.json())).toContain(message);
    }
  });
});
