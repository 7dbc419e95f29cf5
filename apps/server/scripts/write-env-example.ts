// Writes .env.example at the repository's root from the settings schema (npm run docs:env).
import { writeFileSync } from 'node:fs';
import { envExample } from '../src/config';

const file = new URL('../../../.env.example', import.meta.url);
writeFileSync(file, envExample());
process.stdout.write(`wrote ${file.pathname}\n`);
