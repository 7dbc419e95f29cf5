import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { createAccount } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm, outbox } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { endOfLocalDay, localInstant } from '../../platform/local-time';
import { sweepNow } from './sweeper';

const ZONE = 'America/New_York';
const at = (date: string, hour: number, minute = 0) => localInstant(date, { hour, minute, second: 0 }, ZONE);

describe.each(testDatabaseKinds)("the BRMs' daily digest on %s", (kind) => {
  let t: TestApp;
  const clock = new TestClock(at('2027-03-01', 10));
  const sweep = () => sweepNow({ db: t.ctx.db, clock, config: t.ctx.config, log: t.app.log });
  const digests = async (username: string) =>
    (await outbox(t, `${username}@example.test`)).filter((m) => m.template === 'access-digest');

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    const acme = await addOrganization(t, 'Acme Imaging');
    const beta = await addOrganization(t, 'Beta Labs');
    const bea = await createAccount(t, { username: 'bea', type: 'employee', isEmployeeBrm: true });
    const bob = await createAccount(t, { username: 'bob', type: 'employee', isEmployeeBrm: true });
    const obi = await createAccount(t, { username: 'obi', type: 'employee', isEmployeeBrm: true });
    const sam = await createAccount(t, { username: 'sam', type: 'employee', isAdmin: true });
    await assignBrm(t, bea, acme);
    await assignBrm(t, bob, acme);
    await t.ctx.db
      .updateTable('brm_assignments')
      .set({ kind: 'backup' })
      .where('account_id', '=', bob)
      .execute();
    await assignBrm(t, obi, beta);
    const grant = async (
      username: string,
      organizationId: string,
      endsOn: string,
      sponsor: string | null,
    ) => {
      const id = await createAccount(t, { username });
      await t.ctx.db
        .insertInto('role_grants')
        .values({
          account_id: id,
          organization_id: organizationId,
          granted_by: sponsor,
          sponsor_id: sponsor,
          granted_at: at('2027-01-01', 9),
          expires_at: endOfLocalDay(endsOn, ZONE),
        })
        .execute();
    };
    await grant('vic', acme, '2027-03-12', sam); // sponsored by sam, who is no BRM of Acme
    await grant('val', acme, '2027-06-01', bea); // far off: in no digest
    await grant('ned', acme, '2027-03-09', bea); // ends while the sweeper is down; ned's only grant
    await grant('olga', beta, '2027-03-11', obi);
  });
  afterAll(async () => t?.close());

  it('goes out from 08:00 once a day to primary BRMs and sponsors, listing the next 14 days', async () => {
    clock.set(at('2027-03-08', 7, 45));
    await sweep();
    expect(await digests('bea')).toHaveLength(0); // before 08:00 nothing is due

    clock.set(at('2027-03-08', 8, 0));
    await sweep();
    clock.set(at('2027-03-08', 8, 15));
    await sweep(); // a second sweep the same day sends nothing more
    const [bea] = await digests('bea');
    expect(await digests('bea')).toHaveLength(1);
    expect(bea!.subject).toBe('Vendor access ending in your organizations');
    expect(bea!.text_body).toContain(
      'Access ending in the next 14 days:\n' +
        '- Ned Tester (Acme Imaging): ends on 2027-03-09 (1 day left)\n' +
        '- Vic Tester (Acme Imaging): ends on 2027-03-12 (4 days left)\n',
    );
    expect(bea!.text_body).not.toContain('Val Tester');
    expect(bea!.text_body).not.toContain('ended');
    expect(bea!.html_body).toContain('<li>Ned Tester (Acme Imaging): ends on 2027-03-09 (1 day left)</li>');
    // The sponsor hears of the grant it sponsors, not of the organization's others.
    const [sam] = await digests('sam');
    expect(sam!.text_body).toContain('- Vic Tester (Acme Imaging): ends on 2027-03-12');
    expect(sam!.text_body).not.toContain('Ned Tester');
    expect((await digests('obi'))[0]!.text_body).toContain('- Olga Tester (Beta Labs): ends on 2027-03-11');
    // A backup BRM gets forwarded requests, not the digest.
    expect(await digests('bob')).toHaveLength(0);
  });

  it('after a missed day sends one digest that lists what ended since the last one, and the disabled account', async () => {
    // The sweeper is down all of 2027-03-09: ned's grant ends that night without a sweep.
    clock.set(at('2027-03-10', 9, 30));
    await sweep();
    await sweep();
    const list = await digests('bea');
    expect(list).toHaveLength(2); // 03-08 and 03-10: none for the missed day
    const text = list[1]!.text_body;
    expect(text).toContain(
      'Access ending in the next 14 days:\n- Vic Tester (Acme Imaging): ends on 2027-03-12 (2 days left)\n',
    );
    expect(text).toContain(
      'Access that ended since 2027-03-08:\n- Ned Tester (Acme Imaging): ended on 2027-03-09\n',
    );
    expect(text).toContain(
      'Accounts disabled because no access remains (closed unless given access again):\n- Ned Tester: closes on 2027-04-09\n',
    );
    const notices = await t.ctx.db
      .selectFrom('governance_notices')
      .select(['milestone', 'skipped'])
      .where('kind', '=', 'digest.brm')
      .where(
        'subject_id',
        '=',
        (
          await t.ctx.db
            .selectFrom('accounts')
            .select('id')
            .where('username', '=', 'bea')
            .executeTakeFirstOrThrow()
        ).id,
      )
      .orderBy('milestone')
      .execute();
    expect(notices).toEqual([
      { milestone: '2027-03-08', skipped: false },
      { milestone: '2027-03-10', skipped: false },
    ]);

    // The next day: what ended yesterday (nothing), what ends soon (vic).
    clock.set(at('2027-03-11', 8, 5));
    await sweep();
    const next = (await digests('bea'))[2]!.text_body;
    expect(next).toContain('- Vic Tester (Acme Imaging): ends on 2027-03-12 (1 day left)');
    expect(next).not.toContain('Ned Tester');

    clock.set(at('2027-03-12', 8, 0));
    await sweep();
    expect((await digests('sam')).at(-1)!.text_body).toContain(
      '- Vic Tester (Acme Imaging): ends on 2027-03-12 (today)',
    );
    // Vic's grant ends that night; the next morning it is "yesterday" for bea and for sam.
    clock.set(at('2027-03-13', 0, 10));
    await sweep();
    clock.set(at('2027-03-13', 8, 0));
    await sweep();
    for (const username of ['bea', 'sam']) {
      expect((await digests(username)).at(-1)!.text_body).toContain(
        'Access that ended yesterday:\n- Vic Tester (Acme Imaging): ended on 2027-03-12\n',
      );
    }
    // It was vic's only grant: the account is disabled, and the digest says until when it can come back.
    expect((await digests('bea')).at(-1)!.text_body).toContain('- Vic Tester: closes on 2027-04-12');
    // The day after, nothing is left to say.
    const count = (await digests('bea')).length;
    clock.set(at('2027-03-14', 8, 0));
    await sweep();
    expect(await digests('bea')).toHaveLength(count);
  });

  it('says nothing to a recipient with nothing to read', async () => {
    clock.set(at('2027-05-01', 9));
    const before = (await digests('bea')).length;
    await sweep();
    expect(await digests('bea')).toHaveLength(before);
  });
});
