import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from './metrics';

describe('the request-duration histogram', () => {
  it("gives the exposition prom-client's own Histogram gives for the same observations", async () => {
    const observations: [string, string, number, number][] = [
      ['GET', '/api/user', 200, 0.0012],
      ['GET', '/api/user', 200, 0.005], // on a bound: counted in that bucket
      ['GET', '/api/user', 200, 0.3],
      ['GET', '/api/user', 401, 0.002],
      ['POST', '/api/saml/acs', 303, 12], // above every bound: only +Inf
      ['GET', 'unmatched', 404, 0.0001],
    ];
    const ours = new client.Registry();
    const durations = new RequestDurations();
    ours.registerMetric(durations as unknown as client.Metric);
    const reference = new client.Registry();
    const histogram = new client.Histogram({
      name: durations.name,
      help: durations.help,
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [reference],
    });
    for (const [method, route, status, seconds] of observations) {
      durations.observe(method, route, status, seconds);
      histogram.observe({ method, route, status_code: String(status) }, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await reference.metrics());
    expect(text).toContain(
      'pra_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/user",status_code="200"} 2',
    );
    expect(text).toContain(
      'pra_http_request_duration_seconds_count{method="POST",route="/api/saml/acs",status_code="303"} 1',
    );

    durations.reset();
    histogram.reset();
    expect(await ours.metrics()).toBe(await reference.metrics());
  });
});
