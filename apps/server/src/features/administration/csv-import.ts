import { z } from 'zod';
import { AppError } from '../../platform/app-error';
import { findAccountByUsername } from '../../store/accounts';
import type { Db, Tx } from '../../platform/db';
import type { Actor } from './actor';
import { parseCsv } from './csv';
import { addDomain, createOrganization } from './organizations';
import { assignBrm, createPerson, requireEmployee } from './people';
import { findOrganizationByName } from '../../store/organizations';

/**
 * Imports organizations and BRM assignments from CSV. One row per organization, or per
 * organization and BRM; columns (header row required, any order):
 *   organization, domains (separated by spaces or ;), brm_username, and to create a BRM who has
 *   no account yet: brm_email, brm_given_name, brm_family_name.
 * The whole file runs in one transaction; a dry run (and any row's error) rolls it back, so the
 * dry run's report is exactly what --apply will do.
 */

export const importColumns = [
  'organization',
  'domains',
  'brm_username',
  'brm_email',
  'brm_given_name',
  'brm_family_name',
] as const;

export interface ImportReport {
  lines: string[];
  errors: number;
  applied: boolean;
}

class RollBack extends Error {}

const email = z.email();

async function importRow(tx: Tx, actor: Actor, cells: Record<string, string>): Promise<string> {
  const name = cells.organization?.trim() ?? '';
  if (!name) throw new AppError('badRequest', 'organization is empty');
  const domains = (cells.domains ?? '').split(/[\s;]+/).filter(Boolean);
  const done: string[] = [];
  let org = await findOrganizationByName(tx, name);
  if (!org) {
    const created = await createOrganization(tx, actor, { name, domains });
    done.push(`create organization "${created.name}"${domains.length ? ` with ${domains.join(', ')}` : ''}`);
    org = await findOrganizationByName(tx, name);
  } else {
    const added: string[] = [];
    for (const domain of domains) if (await addDomain(tx, actor, org, domain)) added.push(domain);
    done.push(
      added.length
        ? `organization "${org.name}" exists; add ${added.join(', ')}`
        : `organization "${org.name}" unchanged`,
    );
  }
  const brm = cells.brm_username?.trim();
  if (brm && org) {
    let person = await findAccountByUsername(tx, brm);
    if (!person) {
      const brmEmail = cells.brm_email?.trim() ?? '';
      if (!email.safeParse(brmEmail).success) {
        throw new AppError(
          'badRequest',
          `no employee "${brm}"; give brm_email, brm_given_name and brm_family_name to create one`,
        );
      }
      person = await createPerson(tx, actor, {
        username: brm,
        givenName: cells.brm_given_name?.trim() || brm,
        familyName: cells.brm_family_name?.trim() || '',
        email: brmEmail,
        isEmployeeBrm: true,
        isAdmin: false,
      });
      done.push(`create employee ${person.username}`);
    }
    person = await requireEmployee(tx, { id: person.id });
    await assignBrm(tx, actor, person, { id: org.id });
    done.push(`${person.username} is BRM of "${org.name}"`);
  }
  return done.join('; ');
}

export async function importCsv(db: Db, actor: Actor, text: string, apply: boolean): Promise<ImportReport> {
  let rows: string[][];
  try {
    rows = parseCsv(text);
  } catch (error) {
    return { lines: [`error: ${(error as Error).message}`], errors: 1, applied: false };
  }
  const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !(importColumns as readonly string[]).includes(h));
  if (!header.includes('organization') || unknown.length > 0) {
    return {
      lines: [
        `error: the first row must name the columns: ${importColumns.join(', ')} (organization required)${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
      ],
      errors: 1,
      applied: false,
    };
  }
  const report: ImportReport = { lines: [], errors: 0, applied: false };
  try {
    await db.transaction().execute(async (tx) => {
      for (const [index, row] of rows.entries()) {
        const cells = Object.fromEntries(header.map((h, i) => [h, row[i] ?? '']));
        const line = `row ${index + 2}`;
        try {
          report.lines.push(`${line}: ${await importRow(tx, actor, cells)}`);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          report.errors += 1;
          report.lines.push(`${line}: error: ${error.message}`);
          // A failed check writes nothing, so the rows after it are still worth reporting.
        }
      }
      if (!apply || report.errors > 0) throw new RollBack();
    });
    report.applied = true;
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }
  return report;
}
