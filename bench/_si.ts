import { benchSignIn } from './sign-in';
import { printTable } from './table';
printTable(await benchSignIn('pglite', 15));
