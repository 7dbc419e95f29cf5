// npm run bench:password-timing -- [attempts]
// Whether the built-in IdP's password step tells usernames apart by its time, with the hospital's
// directory (IDENTITY_STORE=ldap, Debian's slapd started here): a vendor's wrong password (a bind
// in the directory), an employee's (argon2id here) and an unknown username (a dummy verify), each
// `attempts` times (default 200), interleaved, each from its own address with the lockout counters
// cleared first (a locked answer is quicker and would hide the check). Prints each kind's median
// and the largest gap between two medians. In-process, embedded database (PGlite).
import { startSlapd } from '../apps/server/test/support/slapd';
import { createAccount } from '../apps/server/test/support/sign-in';
import { createTestApp } from '../apps/server/test/support/test-app';
import { checkPassword } from '../apps/server/src/idp/password-step';
import { median, printTable, type BenchRow } from './table';

const attempts = Number(process.argv[2] ?? 200);
const slapd = await startSlapd();
const t = await createTestApp('pglite', slapd.env);
try {
  await createAccount(t, { username: 'benchvendor' });
  await t.ctx.identityStore.ensureAccount({
    username: 'benchvendor',
    givenName: 'Bench',
    familyName: 'Vendor',
    email: 'bench.vendor@acme.example',
  });
  await t.ctx.identityStore.setPassword('benchvendor', 'Bench-Directory-Password-1');
  await createAccount(t, { username: 'benchemployee', type: 'employee' });
  const kinds = {
    'a vendor (password in the directory)': () => 'benchvendor',
    'an employee (argon2id here)': () => 'benchemployee',
    'an unknown username': (i: number) => `nobody${i}`,
  };
  const times = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
  let address = 0;
  for (let i = 0; i < attempts + 5; i++) {
    for (const [kind, username] of Object.entries(kinds)) {
      await t.ctx.db.deleteFrom('rate_limits').execute();
      address += 1;
      const started = performance.now();
      const outcome = await checkPassword(t.ctx, {
        username: username(i),
        password: 'Not-The-Password-9',
        clientAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      });
      const ms = performance.now() - started;
      if (outcome.ok || !outcome.message.startsWith('The username or password'))
        throw new Error(JSON.stringify(outcome));
      if (i >= 5) times.get(kind)!.push(ms); // the first five warm up
    }
  }
  const medians = [...times].map(([kind, list]) => ({ kind, median: median(list) }));
  const gap = Math.max(...medians.map((m) => m.median)) - Math.min(...medians.map((m) => m.median));
  const rows: BenchRow[] = [
    ...medians.map(({ kind, median: value }) => ({
      figure: `password step, wrong password, ${kind}`,
      value: Math.round(value * 100) / 100,
      unit: 'ms',
      note: `median of ${attempts}`,
    })),
    {
      figure: 'largest gap between those medians',
      value: Math.round(gap * 100) / 100,
      unit: 'ms',
      note: 'what a caller timing many attempts could learn about a username',
    },
  ];
  printTable(rows);
} finally {
  await t.close();
  await slapd.close();
}
