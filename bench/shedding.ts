// npm run bench:shedding -- <portal url> [connections] [seconds]
// Signs the demo vendor jdoe in through the built-in IdP of a running portal (DEMO_DATA=true,
// DEMO_PASSWORD set, IDP=builtin), then loads GET /api/user with that session from many
// connections and prints the p99 latency of the requests served (200) and the share shed (503).
import autocannon from 'autocannon';
import { Browser, signInThroughBuiltinIdp } from '../apps/server/test/support/http-browser';

const [baseUrl = 'http://127.0.0.1:8080', connections = '300', seconds = '20'] = process.argv.slice(2);
const password = process.env.DEMO_PASSWORD ?? '';
const browser = new Browser();
const acs = await signInThroughBuiltinIdp(browser, [baseUrl], { username: 'jdoe', password });
if (acs.status !== 303) throw new Error(`sign-in failed: ${acs.status}`);
const served: number[] = [];
const statuses = new Map<number, number>();
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(
    {
      url: `${baseUrl}/api/user`,
      connections: Number(connections),
      duration: Number(seconds),
      headers: {
        cookie: browser.cookieHeader,
        'x-pra-api-call': 'true',
      },
    },
    (error: Error | null, finished) => (error ? reject(error) : resolve(finished)),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    if (statusCode === 200) served.push(responseTime);
  });
});
served.sort((a, b) => a - b);
const total = [...statuses.values()].reduce((a, b) => a + b, 0);
const at = (q: number) => served[Math.min(served.length - 1, Math.floor(q * served.length))] ?? 0;
console.log(
  JSON.stringify({
    connections: Number(connections),
    seconds: Number(seconds),
    responses: total,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses: Object.fromEntries(statuses),
    shedShare: `${(((statuses.get(503) ?? 0) / Math.max(1, total)) * 100).toFixed(1)} %`,
    servedP50ms: Math.round(at(0.5)),
    servedP99ms: Math.round(at(0.99)),
    allP99ms: result.latency.p99,
  }),
);
