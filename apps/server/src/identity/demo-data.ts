import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { roleName } from '@pra/contracts';
import type { Db } from '../platform/db';
import { insertActiveAccount, insertPasswordHistory } from '../store/accounts';
import { append } from '../store/audit';
import { insertBrmAssignment, insertRoleGrant } from '../store/grants';
import { anyOrganization, insertDomains, insertOrganization, lockDemoSeed } from '../store/organizations';
import { hashPassword } from './passwords';

interface DemoAccount {
  username: string;
  givenName: string;
  familyName: string;
  email: string;
  jobTitle: string;
  type: 'vendor' | 'employee';
  isEmployeeBrm?: boolean;
  isAdmin?: boolean;
  /** Governance's read-only auditor (GOVERNANCE.md §2.5): reports, review evidence, audit trail. */
  isAuditor?: boolean;
  /** Organizations a BRM manages, or whose role a vendor holds. */
  orgs: string[];
}

// partners.example belongs to all three (a contractor working for several vendors): PRODUCT.md
// offers a vendor the roles of every organization owning its email domain, and the Manage Access
// journey needs such a domain. The administration screens refuse to share a domain once more.
const demoOrganizations = [
  { name: 'Acme Imaging', domains: ['acme-imaging.example', 'partners.example'] },
  { name: 'Globex Health IT', domains: ['globex.example', 'partners.example'] },
  { name: 'Initech Devices', domains: ['initech.example', 'initech-devices.example', 'partners.example'] },
] as const;

const demoAccounts: DemoAccount[] = [
  {
    username: 'admin',
    givenName: 'Alex',
    familyName: 'Morgan',
    email: 'alex.morgan@hospital.example',
    jobTitle: 'Information Security Administrator',
    type: 'employee',
    isAdmin: true,
    orgs: [],
  },
  {
    username: 'bbrown',
    givenName: 'Beatrice',
    familyName: 'Brown',
    email: 'beatrice.brown@hospital.example',
    jobTitle: 'Business Relationship Manager',
    type: 'employee',
    isEmployeeBrm: true,
    orgs: ['Acme Imaging'],
  },
  {
    username: 'cchen',
    givenName: 'Carlos',
    familyName: 'Chen',
    email: 'carlos.chen@hospital.example',
    jobTitle: 'Business Relationship Manager',
    type: 'employee',
    isEmployeeBrm: true,
    orgs: ['Globex Health IT', 'Initech Devices'],
  },
  // An auditor who is neither admin nor BRM: reads Administration → Reports and the audit trail.
  {
    username: 'aquinn',
    givenName: 'Avery',
    familyName: 'Quinn',
    email: 'avery.quinn@hospital.example',
    jobTitle: 'Compliance Auditor',
    type: 'employee',
    isAuditor: true,
    orgs: [],
  },
  {
    username: 'jdoe',
    givenName: 'Jane',
    familyName: 'Doe',
    email: 'jane.doe@acme-imaging.example',
    jobTitle: 'Field Service Engineer',
    type: 'vendor',
    orgs: ['Acme Imaging'],
  },
  {
    username: 'msmith',
    givenName: 'Mark',
    familyName: 'Smith',
    email: 'mark.smith@globex.example',
    jobTitle: 'Integration Analyst',
    type: 'vendor',
    orgs: ['Globex Health IT'],
  },
  // A subcontractor working for two organizations of different BRMs: terminating it from one
  // leaves the other's access (Terminate Vendors).
  {
    username: 'dreyes',
    givenName: 'Dana',
    familyName: 'Reyes',
    email: 'dana.reyes@initech.example',
    jobTitle: 'Service Technician',
    type: 'vendor',
    orgs: ['Acme Imaging', 'Initech Devices'],
  },
];

export interface SeedResult {
  created: boolean;
  password: string;
}

/**
 * Creates the demo organizations and accounts when the database has no organization yet, so
 * later starts leave everything as it is. Returns the password it gave the demo accounts.
 */
export async function seedDemoData(db: Db, password: string | undefined): Promise<SeedResult> {
  const demoPassword = password ?? `Demo-${randomBytes(9).toString('base64url')}-9`;
  // Later starts find data and stop here, without paying for a password hash.
  if (await anyOrganization(db)) {
    return { created: false, password: demoPassword };
  }
  const passwordHash = await hashPassword(demoPassword);
  const created = await db.transaction().execute(async (tx) => {
    // Checked again inside the transaction, under a lock: two instances may start at once, and
    // the second must wait for the first's commit and then find its data (not collide with it).
    await lockDemoSeed(tx);
    if (await anyOrganization(tx)) return false;
    const orgIds = new Map<string, string>();
    for (const org of demoOrganizations) {
      const id = await insertOrganization(tx, org.name);
      orgIds.set(org.name, id);
      await insertDomains(tx, id, org.domains);
    }
    for (const person of demoAccounts) {
      const id = await insertActiveAccount(tx, {
        username: person.username,
        given_name: person.givenName,
        family_name: person.familyName,
        email: person.email,
        job_title: person.jobTitle,
        type: person.type,
        is_employee_brm: person.isEmployeeBrm ?? false,
        is_admin: person.isAdmin ?? false,
        is_auditor: person.isAuditor ?? false,
        password_hash: passwordHash,
      });
      // As for every other account: a change must not go back to the initial password.
      await insertPasswordHistory(tx, id, passwordHash);
      for (const orgName of person.orgs) {
        const organizationId = orgIds.get(orgName);
        if (!organizationId) throw new Error(`demo organization ${orgName} missing`);
        if (person.type === 'employee') await insertBrmAssignment(tx, id, organizationId);
        else await insertRoleGrant(tx, id, organizationId);
      }
    }
    await append(tx, {
      action: 'demo.seed',
      outcome: 'success',
      actor_username: 'system',
      details: JSON.stringify({}),
    });
    return true;
  });
  return { created, password: demoPassword };
}

/** What the first start prints: how to sign in to each demo account. */
function describeDemoAccounts(publicUrl: string, password: string, devMailbox: boolean): string {
  const lines = demoAccounts.map((a) => {
    const role = a.isAdmin ? 'admin' : a.isEmployeeBrm ? 'BRM' : a.isAuditor ? 'auditor' : 'vendor';
    const orgs = a.orgs.length ? ` (${a.orgs.map((o) => roleName(o)).join(', ')})` : '';
    return `  ${a.username.padEnd(8)} ${role.padEnd(7)} ${a.givenName} ${a.familyName}${orgs}`;
  });
  const domains = demoOrganizations.map((o) => `  ${o.name}: ${o.domains.join(', ')}`);
  return [
    '',
    `PRA Portal demo data created. Open ${publicUrl}/home and Log In with one of:`,
    ...lines,
    `  password for every demo account: ${password}`,
    'Demo organizations and their email domains (register a new vendor with one of these):',
    ...domains,
    // Only standalone serves the dev mailbox; production's mail goes to its relay.
    ...(devMailbox ? [`Mail sent by the portal appears at ${publicUrl}/dev/mailbox`] : []),
    '',
  ].join('\n');
}

/** Where the sign-in details of the demo accounts are kept (owner-only) for later reference. */
export function demoAccountsFile(dataDir: string): string {
  return resolve(dataDir, 'demo-accounts.txt');
}

/**
 * Prints how to sign in to the demo accounts (to the console, never to the log) and keeps the
 * same text in DATA_DIR, so the file always matches the password last printed.
 */
export function announceDemoAccounts(
  config: { DATA_DIR: string; publicUrl: string; isStandalone: boolean },
  password: string,
): void {
  const dataDir = config.DATA_DIR;
  const text = describeDemoAccounts(config.publicUrl, password, config.isStandalone);
  process.stdout.write(`${text}\n`);
  const file = demoAccountsFile(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // `mode` applies only when the file is created: an older copy is made owner-only before the
  // password is written into it.
  if (existsSync(file)) chmodSync(file, 0o600);
  writeFileSync(file, `${text}\n`, { mode: 0o600 });
}
