import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * The yearly Acceptable Use Policy attestation (GOVERNANCE.md §8): `aup_versions` holds each
 * published version (Markdown, effective date, SHA-256 of the body, who published it),
 * `aup_acceptances` each acceptance (which account, which version, when, from which address), and
 * `accounts.aup_overdue_since` is set by the governance sweep when a vendor's grace has run out
 * (cleared by the acceptance), so the per-request session lookup already carries the block.
 * Version 1 is the policy the activation wizard has always shown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table aup_versions (
      id uuid primary key default gen_random_uuid(),
      version integer not null unique check (version > 0),
      title text not null check (char_length(title) between 1 and 200),
      body_md text not null,
      sha256 text not null,
      effective_on date not null,
      published_at timestamptz not null,
      published_by uuid references accounts(id) on delete set null
    )`.execute(db);
  await sql`
    create table aup_acceptances (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      version_id uuid not null references aup_versions(id),
      accepted_at timestamptz not null,
      client_address text
    )`.execute(db);
  await sql`create index aup_acceptances_account on aup_acceptances (account_id, accepted_at desc)`.execute(
    db,
  );
  await sql`alter table accounts add column aup_overdue_since timestamptz`.execute(db);
  const sha256 = createHash('sha256').update(VERSION_1_BODY, 'utf8').digest('hex');
  await sql`
    insert into aup_versions (version, title, body_md, sha256, effective_on, published_at)
    values (1, 'Acceptable Use Policy', ${VERSION_1_BODY}, ${sha256}, current_date, now())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table accounts drop column aup_overdue_since`.execute(db);
  await sql`drop table aup_acceptances`.execute(db);
  await sql`drop table aup_versions`.execute(db);
}

/** The policy of the activation wizard and the registration form (components/acceptable-use-policy). */
export const VERSION_1_BODY = `The Privileged Remote Access (PRA) service lets approved vendor staff connect to the hospital's clinical and business systems to install, support and maintain the products the hospital has bought from them. These systems hold patient information and keep patient care running. By using the service you agree to the following.

## Authorized use only

- Use your access only for work the hospital has asked for or approved, on the systems your organization supports, and only for as long as that work needs.
- Do not look at, copy, download, print, change or delete patient or hospital information unless the approved task requires it; never take it off the hospital's systems.
- Do not try to reach systems, accounts or data you have not been given access to.

## Your account is yours alone

- Your account, password and multi-factor device are personal. Never share them, write down your password, or let anyone else work in your session.
- Lock or end your session whenever you step away, and log out when the work is done.
- Tell PRA support at once if you suspect your credentials or device are lost or compromised.

## Protecting the systems

- Connect only from devices your organization manages, with current security updates and anti-malware protection.
- Do not install software, change configurations or transfer files unless the approved task requires it and the hospital's change procedures allow it.
- Do not disable, bypass or test security controls.

## Monitoring and consequences

- Sessions are logged and may be recorded and reviewed. There is no expectation of privacy when using the service.
- Misuse may lead to immediate removal of access, notification of your employer, termination of the vendor's contract, and action under privacy and computer-misuse laws.
- Your organization must tell the hospital promptly when you no longer need access, for example when you change role or leave.
`;
