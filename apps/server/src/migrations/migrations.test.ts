import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds } from '../../test/support/databases';
import {
  buildSchema,
  migrateToLatest,
  migrations,
  SchemaTooNewError,
  openDatabase,
  schemaIsCurrent,
  type DatabaseHandle,
} from '../platform/db';

const tables = [
  'accounts',
  'activity_reviews',
  'audit_events',
  'aup_acceptances',
  'aup_versions',
  'authenticators',
  'brm_assignments',
  'brm_delegations',
  'codes',
  'departure_reports',
  'directory_reports',
  'emergency_grants',
  'governance_notices',
  'governance_policies',
  'governance_sweep',
  'grant_history',
  'idp_metadata',
  'job_results',
  'jobs',
  'mfa_devices',
  'organization_domains',
  'organizations',
  'outbox',
  'passkey_requirements',
  'password_history',
  'portal_settings',
  'provisioning',
  'push_challenges',
  'rate_limits',
  'request_items',
  'request_routing',
  'requests',
  'review_campaigns',
  'review_cycles',
  'review_items',
  'role_grants',
  'saml_assertions',
  'saml_requests',
  'service_tokens',
  'sessions',
  'signing_keys',
  'system_message',
  'vendor_scope_version',
  'webauthn_credentials',
  'webauthn_users',
];

describe.each(testDatabaseKinds)('migrations on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
  });
  afterAll(async () => handle?.close());

  it('create every table of the portal', async () => {
    const rows = await sql<{ tablename: string }>`
      select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely%' order by 1`.execute(
      handle.db,
    );
    expect(rows.rows.map((r) => r.tablename)).toEqual(tables);
  });

  it("are skipped only when the database ran exactly this build's migrations", async () => {
    expect(await schemaIsCurrent(handle.db)).toBe(true);
    const last = Object.keys(migrations).sort().at(-1)!;
    await sql`update kysely_migration set name = 'renamed' where name = ${last}`.execute(handle.db);
    expect(await schemaIsCurrent(handle.db)).toBe(false);
    await sql`update kysely_migration set name = ${last} where name = 'renamed'`.execute(handle.db);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-build', now()::text)`.execute(
      handle.db,
    );
    expect(await schemaIsCurrent(handle.db)).toBe(false);
    await sql`delete from kysely_migration where name = '9999-from-a-newer-build'`.execute(handle.db);
    expect(await schemaIsCurrent(handle.db)).toBe(true);
  });

  it('refuse a database a newer build migrated, naming both schemas, and change nothing', async () => {
    const newer = `${String(buildSchema + 1).padStart(4, '0')}-from-a-newer-build`;
    await sql`insert into kysely_migration (name, timestamp) values (${newer}, now()::text)`.execute(
      handle.db,
    );
    try {
      await expect(migrateToLatest(handle.db)).rejects.toThrow(
        new SchemaTooNewError(
          `database schema ${buildSchema + 1} is newer than this build's ${buildSchema}: upgrade, or restore the backup taken before the upgrade`,
        ),
      );
    } finally {
      await sql`delete from kysely_migration where name = ${newer}`.execute(handle.db);
    }
    expect(await migrateToLatest(handle.db)).toEqual([]);
  });

  it('are idempotent', async () => {
    await migrateToLatest(handle.db);
    await migrateToLatest(handle.db);
  });

  it('enforce the constraints', async () => {
    const db = handle.db;
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Acme' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(db.insertInto('organizations').values({ name: 'ACME' }).execute()).rejects.toThrow();
    await expect(
      db
        .insertInto('organization_domains')
        .values({ organization_id: org.id, domain: 'Upper.Example' })
        .execute(),
    ).rejects.toThrow();
    const account = {
      username: 'Someone',
      email: 's@acme.example',
      type: 'vendor' as const,
      status: 'active' as const,
      password_hash: null,
    };
    await db.insertInto('accounts').values(account).execute();
    await expect(
      db
        .insertInto('accounts')
        .values({ ...account, username: 'someone' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('accounts')
        .values({ ...account, username: 'vendoradmin', is_admin: true })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('accounts')
        .values({ ...account, username: 'x', status: 'unknown' as never })
        .execute(),
    ).rejects.toThrow();
    // One pending registration per email, whatever the letter case.
    const pending = {
      type: 'New Account' as const,
      status: 'pending' as const,
      requester_id: null,
      beneficiary_id: null,
    };
    await db
      .insertInto('requests')
      .values({ ...pending, email: 'new@acme.example' })
      .execute();
    await expect(
      db
        .insertInto('requests')
        .values({ ...pending, email: 'NEW@acme.example' })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto('requests')
      .values({ ...pending, status: 'denied', email: 'new@acme.example' })
      .execute();
    await expect(
      db
        .insertInto('system_message')
        .values({ id: 2, enabled: false, logged_in_only: false, severity: 'info', title: '', text: '' })
        .execute(),
    ).rejects.toThrow();
  });
});

describe('an empty embedded database', () => {
  it('is not taken for a current schema', async () => {
    const handle = await openDatabase({});
    try {
      expect(await schemaIsCurrent(handle.db)).toBe(false);
      await migrateToLatest(handle.db);
      expect(await schemaIsCurrent(handle.db)).toBe(true);
    } finally {
      await handle.close();
    }
    // initdb and every migration: seconds alone, over a minute on a CI machine under load.
  }, 150_000);
});

describe.each(testDatabaseKinds)('the undeliverable-mail migration on %s', (kind) => {
  it('turns mail the old 20-attempt rule gave up on into undeliverable rows for admins', async () => {
    const handle = await createTestDatabase(kind);
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      await migrator.migrateTo('0002-saml-request-browser');
      await sql`
        insert into outbox (recipient, subject, text_body, html_body, template, status, attempts, last_error)
        values ('x@acme.example', 's', '', '', 'account-approved', 'failed', 20, 'ECONNECTION')`.execute(
        handle.db,
      );
      await migrateToLatest(handle.db);
      const row = await handle.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        status: 'undeliverable',
        last_error: 'retries exhausted (former 20-attempt limit): ECONNECTION',
      });
      expect(row.undeliverable_at).toBeTruthy();
      await expect(
        handle.db
          .updateTable('outbox')
          .set({ status: 'failed' as 'sent' })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await handle.close();
    }
  });
});

describe('migrating a new database', () => {
  it('logs each migration applied, in order, with the time it took', async () => {
    const fresh = await openDatabase({});
    try {
      const lines: { fields: { migration?: string; ms?: number }; message: string }[] = [];
      const applied = await migrateToLatest(fresh.db, {
        info: (fields, message) => lines.push({ fields, message }),
      });
      expect(applied.map((m) => m.name)).toEqual(Object.keys(migrations).sort());
      expect(lines.map((l) => l.fields.migration)).toEqual(Object.keys(migrations).sort());
      for (const { fields, message } of lines) {
        expect(fields.ms).toBeGreaterThanOrEqual(0);
        expect(message).toBe(`applied migration ${fields.migration} in ${fields.ms} ms`);
      }
      expect(buildSchema).toBe(Number.parseInt(Object.keys(migrations).sort().at(-1)!, 10));
      expect(await migrateToLatest(fresh.db, { info: () => expect.fail('nothing to apply') })).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
