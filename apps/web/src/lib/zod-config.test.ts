// @vitest-environment node
import { describe, expect, it } from 'vitest';

describe('the zod setting the entry makes before any schema is built', () => {
  it('is the one zod reads: jitless, so it never probes for new Function under the CSP', async () => {
    await import('./zod-config');
    const { config } = await import('zod/v4/core');
    expect(config().jitless).toBe(true);
    const { z } = await import('zod');
    // An object schema built and used after it parses as before.
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
