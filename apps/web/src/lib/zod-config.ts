import { config } from 'zod/v4/core';

// Zod compiles its object parsers with `new Function` where it may, and probes for that when it
// builds its first object schema. The portal's content security policy (script-src 'self', no
// 'unsafe-eval') refuses it, and the browser reports the refused probe as a policy violation on
// every page that builds a schema: noise in a hospital's CSP reports that reads like an attempted
// injection. Without the probe, zod parses as it already had to under the policy.
config({ jitless: true });
