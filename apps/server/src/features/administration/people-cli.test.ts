import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/databases';
import { loadConfig, type Config } from '../../config';
import { TestClock } from '../../platform/clock';
import type { DatabaseHandle } from '../../platform/db';
import { commands, UsageError, type CliContext } from './cli-commands';

// `npm run admin -- people transfer <username> [--to <org>=<username>…] [--dry-run]` (GOVERNANCE.md
// §6.7): the dry run prints what the transfer then does, and changes nothing.

describe('the people transfer CLI (pglite)', () => {
  let handle: DatabaseHandle;
  let config: Config;
  const ids: Record<string, string> = {};
  const clock = new TestClock(new Date('2027-05-03T14:00:00Z'));
  async function run(args: string[], options: Record<string, unknown> = {}) {
    let output = '';
    const ctx: CliContext = {
      db: handle.db,
      config,
      actor: { id: null, username: 'cli:tester', clientAddress: 'cli' },
      out: (text) => {
        output += text;
      },
      readStdin: async () => '',
      clock,
    };
    await commands.people!.run(ctx, args, options as never);
    return output;
  }

  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    config = loadConfig({ LOG_LEVEL: 'silent' });
    const db = handle.db;
    for (const name of ['Acme Imaging', 'Beta Labs'])
      ids[name] = (
        await db.insertInto('organizations').values({ name }).returning('id').executeTakeFirstOrThrow()
      ).id;
    const person = async (username: string, type: 'employee' | 'vendor') =>
      (ids[username] = (
        await db
          .insertInto('accounts')
          .values({
            username,
            given_name: username[0]!.toUpperCase() + username.slice(1),
            family_name: 'Tester',
            email: `${username}@example.test`,
            type,
            status: 'active',
            is_employee_brm: type === 'employee',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id);
    for (const u of ['lena', 'bob', 'dele']) await person(u, 'employee');
    await person('vic', 'vendor');
    await db
      .insertInto('brm_assignments')
      .values([
        { account_id: ids.lena!, organization_id: ids['Acme Imaging']!, kind: 'primary' },
        { account_id: ids.lena!, organization_id: ids['Beta Labs']!, kind: 'primary' },
        { account_id: ids.bob!, organization_id: ids['Acme Imaging']!, kind: 'backup' },
      ])
      .execute();
    await db
      .insertInto('role_grants')
      .values({
        account_id: ids.vic!,
        organization_id: ids['Acme Imaging']!,
        granted_by: ids.lena!,
        sponsor_id: ids.lena!,
        request_item_id: null,
        expires_at: new Date('2027-08-01T00:00:00Z'),
      })
      .execute();
  });
  afterAll(async () => handle?.close());

  it('refuses bad use, prints the dry run, then transfers exactly that', async () => {
    await expect(run(['move', 'lena'])).rejects.toThrow(UsageError);
    await expect(run(['transfer', 'lena'], { to: ['Nobody Inc=dele'] })).rejects.toThrow(UsageError);
    await expect(run(['transfer', 'lena'], { to: ['Beta Labs'] })).rejects.toThrow(UsageError);
    await expect(run(['transfer', 'lena'], { to: ['Beta Labs=nobody'] })).rejects.toThrow(UsageError);
    await expect(
      run(['transfer', 'lena'], { to: ['Beta Labs=dele'], infosec: ['beta labs'] }),
    ).rejects.toThrow(UsageError);
    await expect(run(['transfer', 'lena'], { to: ['Beta Labs=lena'] })).rejects.toThrow(
      'Choose an active BRM other than the person leaving as successor.',
    );

    const dry = await run(['transfer', 'lena'], { to: ['beta labs=dele'], 'dry-run': true });
    expect(dry).toContain('Acme Imaging\tBob Tester (primary)\t0\t0\t0\t1\n');
    expect(dry).toContain('Beta Labs\tDele Tester (primary)\t0\t0\t0\t0\n');
    expect(dry).toContain('Dry run: nothing changed.');
    expect(
      await handle.db
        .selectFrom('brm_assignments')
        .select('kind')
        .where('account_id', '=', ids.lena!)
        .execute(),
    ).toHaveLength(2);

    const done = await run(['transfer', 'lena'], { to: ['beta labs=dele'] });
    expect(done.replace('Moved', 'Would move').split('\n').slice(0, -2)).toEqual(
      dry.split('\n').slice(0, -2),
    );
    expect(done).toContain('Responsibilities of Lena Tester transferred.');
    const after = await handle.db
      .selectFrom('brm_assignments')
      .select(['account_id', 'organization_id', 'kind'])
      .orderBy('account_id')
      .execute();
    expect(after).toEqual(
      [
        { account_id: ids.bob, organization_id: ids['Acme Imaging'], kind: 'primary' },
        { account_id: ids.dele, organization_id: ids['Beta Labs'], kind: 'primary' },
      ].sort((a, b) => a.account_id!.localeCompare(b.account_id!)),
    );
    const audit = await handle.db
      .selectFrom('audit_events')
      .select(['actor_username', 'details'])
      .where('action', '=', 'brm.transfer')
      .execute();
    expect(audit).toMatchObject([{ actor_username: 'cli:tester', details: { vendors: 1 } }]);
    // Nothing is left: a second run is refused.
    await expect(run(['transfer', 'lena'])).rejects.toThrow('Nothing is left to transfer for Lena Tester.');
  });
});
