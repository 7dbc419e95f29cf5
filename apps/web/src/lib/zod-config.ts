// Zod compiles its object parsers with `new Function` where it may, and probes for that when it
// builds its first object schema. The portal's content security policy (script-src 'self', no
// 'unsafe-eval') refuses it, and the browser reports the refused probe as a policy violation on
// every page that builds a schema: noise in a hospital's CSP reports that reads like an attempted
// injection. Zod's `jitless` setting skips the probe; zod then parses as it had to under the
// policy anyway.
//
// Set without importing zod, which stays off the first page (schema-library-budget.test.ts): zod
// keeps its settings in one object on globalThis, shared by every copy of zod in the page, which
// it creates only when absent and which `config()` from zod/v4/core writes to. Evaluated first
// in the entry (main.tsx), before any schema is built; zod-config.test.ts checks that zod reads it.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};
