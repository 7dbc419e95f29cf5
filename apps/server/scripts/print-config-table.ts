// Prints the README's configuration table from the settings schema (npm run docs:config).
import { configurationTable } from '../src/config';

process.stdout.write(`${configurationTable()}\n`);
