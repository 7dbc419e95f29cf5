// The full sign-in (summed server time, in-process, bench/sign-in.ts) against one argon2id verify,
// both measured in this process, as bench:scale's row: run by bench/scale.ts as a process of its
// own, so that neither figure carries the bench's own heap (its data building, its 2 M-event
// exports) the way a portal's process never would. Prints one line of JSON:
//   node --import tsx bench/sign-in-ratio.ts [runs]
import { hashPassword, verifyPassword } from '../apps/server/src/identity/passwords';
import { benchSignIn, WARM_UP } from './sign-in';
import { median } from './table';

const runs = Number(process.argv[2] ?? 15);

/** Median time of one argon2id verify, over `runs`. */
async function verifyMs(hash: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await verifyPassword(hash, 'Bench-Argon2-Password-1');
    times.push(performance.now() - started);
  }
  return median(times);
}

const hash = await hashPassword('Bench-Argon2-Password-1');
// The verify before and after the sign-ins: the machine's speed over the same minute.
const before = await verifyMs(hash);
const [signIn, , firstOfProcess] = await benchSignIn(
  process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
  runs,
);
const after = await verifyMs(hash);
process.stdout.write(
  `${JSON.stringify({
    signInMs: signIn!.value,
    firstSignInsMs: firstOfProcess!.value,
    warmUp: WARM_UP,
    verifyMs: (before + after) / 2,
    runs,
  })}\n`,
);
