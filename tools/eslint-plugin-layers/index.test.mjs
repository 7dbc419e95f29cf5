import { RuleTester } from 'eslint';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import layers, { floorViolation } from './index.js';

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const repo = path.resolve(import.meta.dirname, '../..');
const at = (p) => path.join(repo, p);

describe('floors', () => {
  it('lets a floor import its own and lower floors', () => {
    expect(floorViolation('apps/server/src/http/guards.ts', 'apps/server/src/platform/db.ts')).toBeNull();
    expect(
      floorViolation('apps/server/src/features/access/routes.ts', 'apps/server/src/features/access/scope.ts'),
    ).toBeNull();
    expect(
      floorViolation('apps/web/src/features/home/home-page.tsx', 'apps/web/src/lib/alerts.ts'),
    ).toBeNull();
    expect(floorViolation('apps/server/src/idp/routes.ts', 'apps/server/src/idp/metadata.ts')).toBeNull();
  });

  it('refuses a lower floor importing a higher one', () => {
    expect(
      floorViolation('apps/server/src/platform/metrics.ts', 'apps/server/src/identity/audit.ts'),
    ).toMatch(/platform floor imports the higher identity floor/);
    expect(floorViolation('apps/web/src/lib/alerts.ts', 'apps/web/src/components/icons.tsx')).toMatch(
      /lib floor imports the higher components floor/,
    );
    expect(floorViolation('apps/web/src/features/home/home-page.tsx', 'apps/web/src/app/router.tsx')).toMatch(
      /features floor imports the higher app floor/,
    );
  });

  it('refuses a feature importing another feature, the IdP a feature, and one app another', () => {
    expect(
      floorViolation(
        'apps/server/src/features/access/routes.ts',
        'apps/server/src/features/approvals/queries.ts',
      ),
    ).toMatch(/features\/access imports features\/approvals/);
    expect(
      floorViolation('apps/server/src/idp/routes.ts', 'apps/server/src/features/session/sign-in.ts'),
    ).toMatch(/idp imports features\/session/);
    expect(
      floorViolation(
        'apps/web/src/features/access/request-access-page.tsx',
        'apps/web/src/features/home/home-page.tsx',
      ),
    ).toMatch(/features\/access imports features\/home/);
    expect(floorViolation('apps/web/src/api/client.ts', 'apps/server/src/platform/db.ts')).toMatch(
      /apps talk/,
    );
  });

  it('lets a test start the whole app but not reach into another feature', () => {
    expect(floorViolation('apps/server/src/http/probes.test.ts', 'apps/server/src/app.ts')).toBeNull();
    expect(
      floorViolation(
        'apps/server/src/features/access/routes.test.ts',
        'apps/server/src/features/approvals/queries.ts',
      ),
    ).toMatch(/features\/access imports features\/approvals/);
  });
});

tester.run('layers/floors', layers.rules.floors, {
  valid: [{ filename: at('apps/server/src/http/guards.ts'), code: "import { x } from '../platform/db';" }],
  invalid: [
    {
      filename: at('apps/server/src/platform/metrics.ts'),
      code: "import { recordAudit } from '../identity/audit';",
      errors: [{ messageId: 'floor' }],
    },
    {
      filename: at('apps/web/src/features/home/home-page.tsx'),
      code: "import { RequestAccessPage } from '../access/request-access-page';",
      errors: [{ messageId: 'floor' }],
    },
  ],
});

tester.run('layers/sql-in-owners', layers.rules['sql-in-owners'], {
  valid: [{ code: 'const account = await findAccount(db, id);' }],
  invalid: [
    { code: "await db.selectFrom('accounts').selectAll().execute();", errors: [{ messageId: 'sql' }] },
    { code: "await tx.updateTable('sessions').set({}).execute();", errors: [{ messageId: 'sql' }] },
    { code: 'const now = sql<Date>`now()`;', errors: [{ messageId: 'sql' }] },
    { code: "await db.executeQuery(CompiledQuery.raw('select 1'));", errors: [{ messageId: 'sql' }] },
    { code: "const column = sql.ref('a.id');", errors: [{ messageId: 'sql' }] },
    {
      code: "await db.selectFrom('accounts').selectAll().execute();",
      options: [{ fragments: true }],
      errors: [{ messageId: 'sql' }],
    },
  ],
});

tester.run('layers/sql-in-owners, fragments allowed', layers.rules['sql-in-owners'], {
  valid: [
    { code: "const scope = sql<boolean>`${sql.ref('a.id')} = ${id}`;", options: [{ fragments: true }] },
  ],
  invalid: [],
});

describe('layers/no-cycle', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-cycle-'));
  fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
  fs.writeFileSync(path.join(dir, 'b.ts'), "import { c } from './c';\nexport const b = c;\n");
  fs.writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport const c = 1;\n");
  fs.writeFileSync(path.join(dir, 'd.ts'), "import type { e } from './e';\nexport const d = 1;\n");
  fs.writeFileSync(path.join(dir, 'e.ts'), "import { d } from './d';\nexport const e = d;\n");
  tester.run('layers/no-cycle', layers.rules['no-cycle'], {
    valid: [
      // e → d, and d reaches back only through a type import: no cycle at run time.
      { filename: path.join(dir, 'e.ts'), code: fs.readFileSync(path.join(dir, 'e.ts'), 'utf8') },
    ],
    invalid: [
      {
        filename: path.join(dir, 'a.ts'),
        code: fs.readFileSync(path.join(dir, 'a.ts'), 'utf8'),
        errors: [{ messageId: 'cycle' }],
      },
    ],
  });
});

describe('clock', () => {
  tester.run('clock', layers.rules.clock, {
    valid: [
      'const at = ctx.clock.now();',
      'const end = new Date(at.getTime() + 1000);',
      'const q = sql`select 1 where expires_at <= ${at}`;',
      'const known = "now() is just text here";',
    ],
    invalid: [
      { code: 'const t = Date.now();', errors: [{ messageId: 'clock' }] },
      { code: 'const t = new Date();', errors: [{ messageId: 'clock' }] },
      { code: 'const q = sql`update t set at = now()`;', errors: [{ messageId: 'clock' }] },
      { code: 'const q = sql<Date>`current_timestamp`;', errors: [{ messageId: 'clock' }] },
      { code: "const q = sql.raw('now()');", errors: [{ messageId: 'clock' }] },
    ],
  });
});
