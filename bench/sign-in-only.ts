// Only the sign-in rows of `npm run bench`, on PostgreSQL (local, or TEST_DATABASE_URL) and PGlite:
//   node --import tsx bench/sign-in-only.ts [runs]
import { benchSignIn } from './sign-in';
import { printTable } from './table';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const runs = Number(process.argv[2] ?? 10);
printTable([...(await benchSignIn('postgres', runs)), ...(await benchSignIn('pglite', runs))]);
