// The anchor of bench/scale.ts: bare fastify + node-postgres on the bench's scale database
// (DATABASE_URL), running the portal's queries without the portal: Manage Users of scalebrm0 (the
// vendors holding a role of an organization it manages, each with its organizations), its pending
// approvals, and one account by username (the point read a signed-in GET /api/user makes).
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
const brm = `(select id from accounts where username = 'scalebrm0')`;

app.get('/healthz', async () => ({ ok: true }));
app.get('/users', async () => {
  const { rows } = await pool.query(
    `select a.username, a.given_name, a.family_name, a.email, a.status,
            array(select g.organization_id::text from role_grants g where g.account_id = a.id) as "organizationIds"
       from accounts a
      where a.type = 'vendor' and a.status <> 'terminated'
        and exists (select 1 from role_grants g where g.account_id = a.id
                      and g.organization_id in (select organization_id from brm_assignments where account_id = ${brm}))
      order by a.username`,
  );
  return rows;
});
app.get('/approvals', async () => {
  const { rows } = await pool.query(
    `select i.id, r.type, r.first_name, r.last_name, r.email, o.name, r.created_at
       from request_items i join requests r on r.id = i.request_id join organizations o on o.id = i.organization_id
      where i.status = 'pending'
        and i.organization_id in (select organization_id from brm_assignments where account_id = ${brm})
      order by r.created_at`,
  );
  return rows;
});
app.get('/user', async (request) => {
  const { rows } = await pool.query(
    'select id, username, given_name, family_name, email, status from accounts where lower(username) = lower($1)',
    [`scalevendor${request.query.n}`],
  );
  return rows[0];
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
