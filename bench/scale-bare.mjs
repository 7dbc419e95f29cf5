// The anchor of bench/scale.ts: bare fastify + node-postgres on the bench's scale database
// (DATABASE_URL), running the portal's queries without the portal: Manage Users' first page for
// scalebrm0 (its count, then the first ten vendors holding a role of an organization it manages,
// each with its organizations), its first page of pending approvals (count, then the newest five),
// and one account by username (the point read a signed-in GET /api/user makes).
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
const brm = `(select id from accounts where username = 'scalebrm0')`;

app.get('/healthz', async () => ({ ok: true }));
const managed = `a.type = 'vendor' and a.status <> 'terminated'
  and a.id in (select g.account_id from role_grants g
                where g.organization_id in (select organization_id from brm_assignments where account_id = ${brm}))`;
app.get('/users', async () => {
  const count = await pool.query(`select count(*)::int as n from accounts a where ${managed}`);
  const { rows } = await pool.query(
    `select a.username, a.given_name, a.family_name, a.email, a.status,
            array(select g.organization_id::text from role_grants g where g.account_id = a.id) as "organizationIds"
       from accounts a where ${managed}
      order by lower(a.username) limit 10`,
  );
  return { items: rows, total: count.rows[0].n };
});
const pending = `i.status = 'pending'
  and i.organization_id in (select organization_id from brm_assignments where account_id = ${brm})`;
app.get('/approvals', async () => {
  const count = await pool.query(`select count(*)::int as n from request_items i where ${pending}`);
  const { rows } = await pool.query(
    `select i.id, r.type, r.first_name, r.last_name, r.email, o.name, r.created_at
       from request_items i join requests r on r.id = i.request_id join organizations o on o.id = i.organization_id
      where ${pending}
      order by r.created_at desc limit 5`,
  );
  return { items: rows, total: count.rows[0].n };
});
app.get('/user', async (request) => {
  const { rows } = await pool.query(
    'select id, username, given_name, family_name, email, status from accounts where lower(username) = lower($1)',
    [`scalevendor${request.query.n}`],
  );
  return rows[0];
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
