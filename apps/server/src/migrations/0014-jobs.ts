import { sql, type Kysely } from 'kysely';

/**
 * Background jobs (issue 31): long work (Terminate Vendors of a big file today; CSV imports,
 * closing a review campaign, large exports later) that a browser follows and that outlives a
 * page reload and a restart. `jobs` holds what to do (`input`), how far it got (`cursor`, the
 * kind's own position; `done` of `total` for the progress bar) and who runs it now (a lease:
 * `lease_holder` until `lease_until`); `job_results` holds the lines written so far, each in the
 * same transaction as the change it reports. The contract: docs/design/jobs.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table jobs (
      id uuid primary key default gen_random_uuid(),
      kind text not null,
      owner_id uuid not null references accounts(id) on delete cascade,
      status text not null default 'queued'
        check (status in ('queued', 'running', 'done', 'cancelled', 'failed')),
      input jsonb not null,
      total integer not null check (total >= 0),
      done integer not null default 0,
      cursor integer not null default 0,
      cancel_requested boolean not null default false,
      lease_holder text,
      lease_until timestamptz,
      attempts integer not null default 0,
      error text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz
    )`.execute(db);
  await sql`create index jobs_runnable_idx on jobs (created_at) where status in ('queued', 'running')`.execute(
    db,
  );
  await sql`create index jobs_owner_idx on jobs (owner_id, kind, created_at desc)`.execute(db);
  await sql`
    create table job_results (
      job_id uuid not null references jobs(id) on delete cascade,
      ordinal integer not null,
      item integer not null,
      result text not null,
      primary key (job_id, ordinal)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table job_results`.execute(db);
  await sql`drop table jobs`.execute(db);
}
