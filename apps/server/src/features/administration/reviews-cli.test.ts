import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/databases';
import { loadConfig, type Config } from '../../config';
import type { DatabaseHandle } from '../../platform/db';
import { commands, UsageError, type CliContext } from './cli-commands';

// `npm run admin -- reviews preview|start|close|export` (GOVERNANCE.md §4.7).

describe.each(testDatabaseKinds)('the reviews CLI on %s', (kind) => {
  let handle: DatabaseHandle;
  let config: Config;
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
    };
    await commands.reviews!.run(ctx, args, options as never);
    return output;
  }

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    config = loadConfig({ LOG_LEVEL: 'silent' });
    const org = await handle.db
      .insertInto('organizations')
      .values({ name: 'Acme Imaging' })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const username of ['one', 'two']) {
      const a = await handle.db
        .insertInto('accounts')
        .values({
          username,
          given_name: 'V',
          family_name: username,
          email: `${username}@acme.example`,
          type: 'vendor',
          status: 'active',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await handle.db
        .insertInto('role_grants')
        .values({
          account_id: a.id,
          organization_id: org.id,
          granted_by: null,
          request_item_id: null,
          expires_at: new Date(Date.now() + 90 * 86_400_000),
        })
        .execute();
    }
  });
  afterAll(async () => handle?.close());

  it('previews (nothing written), starts, closes now and exports evidence whose manifest verifies', async () => {
    const preview = await run(['preview'], { orgs: 'Acme Imaging' });
    expect(preview).toContain('Acme Imaging\t2\t0\t2\t2\t0');
    expect(await handle.db.selectFrom('review_cycles').selectAll().execute()).toEqual([]);
    await expect(run(['preview'], { orgs: 'Nobody Inc' })).rejects.toThrow(UsageError);
    await expect(run(['start'], { default: 'maybe' })).rejects.toThrow(UsageError);

    const started = await run(['start'], { name: 'CLI review', orgs: 'acme imaging', default: 'keep' });
    expect(started).toMatch(/Started cycle [0-9a-f-]{36}\./);
    const campaign = await handle.db.selectFrom('review_campaigns').selectAll().executeTakeFirstOrThrow();
    expect(campaign.status).toBe('open');
    expect(await run(['preview'], { cycle: campaign.cycle_id })).toContain('Acme Imaging\t2\t0\t0\t0\t2');
    expect(await run(['close'], { campaign: campaign.id })).toContain('Closed');
    const dir = mkdtempSync(join(tmpdir(), 'reviews-cli-'));
    expect(await run(['export'], { campaign: campaign.id, out: dir })).toContain('evidence.csv');
    const csv = readFileSync(join(dir, 'evidence.csv'));
    const manifest = JSON.parse(readFileSync(join(dir, 'evidence.json'), 'utf8'));
    expect(manifest.files[0].sha256).toBe(createHash('sha256').update(csv).digest('hex'));
    expect(manifest.counts).toMatchObject({ items: 2, kept: 2, keptByDefault: 2 });
    const audits = await handle.db
      .selectFrom('audit_events')
      .select('action')
      .where('action', 'like', 'review.%')
      .execute();
    expect(new Set(audits.map((a) => a.action))).toEqual(
      new Set([
        'review.preview',
        'review.cycle-start',
        'review.open',
        'review.close',
        'review.apply',
        'review.evidence-export',
      ]),
    );
  });
});
