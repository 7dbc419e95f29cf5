import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { adminApi, adminMessages, type AdminOrganization, type AuditEventView } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn, type FakeReply } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';
import { adminListRoutes } from '../../test/admin-list-routes';

const admin = makeUser({ type: 'employee', isAdmin: true, orgs: [] });
const org: AdminOrganization = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Acme Imaging',
  roleName: 'PRA - Vendor Access - Acme Imaging - BR',
  isActive: true,
  domains: ['acme.example'],
  brms: [],
  riskTier: 'standard',
  contractEndsOn: null,
};

function setup(replies: Record<string, FakeReply>, user = admin) {
  return installFakeServer({ ...bootReplies(signedIn(), user), ...replies }, adminListRoutes(replies));
}

const event = (n: number): AuditEventView => ({
  id: `e${n}`,
  occurredAt: '2026-11-20T10:00:00.000Z',
  action: 'request.approve',
  outcome: 'success',
  actor: 'bbrown',
  target: `vendor${n}@v.example`,
  organization: 'Acme Imaging',
  clientAddress: '10.0.0.1',
  details: { requestId: `r${n}` },
});

describe('Administration', () => {
  it('is offered to admins in the nav, and sends others back to the welcome page', async () => {
    setup({ [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } } });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeTruthy();
    expect(await screen.findByText('PRA - Vendor Access - Acme Imaging - BR')).toBeTruthy();
    expect(screen.getByText('No BRM')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Administration' }).length).toBeGreaterThan(0);
  });

  it('asks the server for one page of organizations at a time, filtered once typing pauses', async () => {
    const many = Array.from({ length: 30 }, (_, n) => ({
      ...org,
      id: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
      name: `Org ${String(n).padStart(2, '0')}`,
      roleName: `PRA - Vendor Access - Org ${String(n).padStart(2, '0')} - BR`,
      domains: [`o${n}.example`],
    }));
    const server = setup({ [`GET ${adminApi.organizations}`]: { data: { organizations: many } } });
    renderApp('/admin/organizations');
    expect(await screen.findByText('PRA - Vendor Access - Org 24 - BR')).toBeTruthy();
    expect(screen.queryByText('PRA - Vendor Access - Org 25 - BR')).toBeNull();
    const pages = () => server.requests.filter((r) => r.key.startsWith(`GET ${adminApi.organizations}?`));
    expect(pages()[0]?.key).toBe(`GET ${adminApi.organizations}?page=1&size=25&sort=name&direction=asc`);
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('PRA - Vendor Access - Org 29 - BR')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Filter by name or domain'), 'o7.');
    expect(await screen.findByText('PRA - Vendor Access - Org 07 - BR')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('PRA - Vendor Access - Org 29 - BR')).toBeNull());
    expect(pages().at(-1)?.key).toBe(
      `GET ${adminApi.organizations}?page=1&size=25&filter=o7.&sort=name&direction=asc`,
    );
    // No call asked for the whole list.
    expect(server.requests.some((r) => r.key === `GET ${adminApi.organizations}`)).toBe(false);
  });

  it('refuses a BRM (redirect to welcome)', async () => {
    setup({}, makeUser({ type: 'employee', isEmployeeBrm: true }));
    const { history } = renderApp('/admin/organizations');
    await waitFor(() => expect(history.location.pathname).toBe('/welcome'));
  });

  it('creates an organization with its domains and shows the server’s refusal otherwise', async () => {
    const server = setup({
      [`GET ${adminApi.organizations}`]: { data: { organizations: [] } },
      [`POST ${adminApi.organizations}`]: {
        status: 409,
        data: { errors: ['An organization named "Acme" already exists.'] },
      },
    });
    renderApp('/admin/organizations');
    await userEvent.type(await screen.findByLabelText('New organization name'), 'Acme');
    await userEvent.type(screen.getByLabelText('Email domains (separated by spaces)'), 'a.example b.example');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('An organization named "Acme" already exists.')).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${adminApi.organizations}`)?.data).toEqual({
      name: 'Acme',
      domains: ['a.example', 'b.example'],
    });
  });

  it('names a refused field as the screen does, beside it, never by its API path', async () => {
    const server = setup({
      [`GET ${adminApi.organizations}`]: { data: { organizations: [] } },
      [`POST ${adminApi.organizations}`]: {
        status: 400,
        data: { errors: [`domains.0: ${adminMessages.domainFormat}`] },
      },
    });
    renderApp('/admin/organizations');
    await userEvent.type(await screen.findByLabelText('New organization name'), 'Acme');
    const domains = screen.getByLabelText('Email domains (separated by spaces)');
    await userEvent.type(domains, 'ok.example https://bad.example');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    // Checked before sending: the typed domain is named, beside the field.
    const describedBy = () => document.getElementById(domains.getAttribute('aria-describedby') ?? '');
    expect(describedBy()?.textContent).toBe(`https://bad.example: ${adminMessages.domainFormat}`);
    expect(server.requests.some((r) => r.key === `POST ${adminApi.organizations}`)).toBe(false);
    // The server's own refusal (whatever the form let through) loses its path too.
    await userEvent.clear(domains);
    await userEvent.type(domains, 'ok.example');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(describedBy()?.textContent).toBe(adminMessages.domainFormat));
    expect(document.body.textContent).not.toContain('domains.0');
  });

  it('adds a BRM person with the organizations chosen', async () => {
    const server = setup({
      [`GET ${adminApi.people}`]: { data: { people: [] } },
      [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } },
      [`POST ${adminApi.people}`]: { data: { success: true, id: 'p1' } },
    });
    renderApp('/admin/people');
    await userEvent.type(await screen.findByLabelText('Username (as at the IdP)'), 'nbrm');
    await userEvent.type(screen.getByLabelText('Given name'), 'New');
    await userEvent.type(screen.getByLabelText('Family name'), 'Brm');
    await userEvent.type(screen.getByLabelText('Email'), 'nbrm@hospital.example');
    await userEvent.click(screen.getByLabelText('BRM'));
    await userEvent.click(await screen.findByLabelText('Acme Imaging'));
    await userEvent.click(screen.getByRole('button', { name: 'Add person' }));
    expect(await screen.findByText('nbrm added.')).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${adminApi.people}`)?.data).toEqual({
      username: 'nbrm',
      givenName: 'New',
      familyName: 'Brm',
      email: 'nbrm@hospital.example',
      isEmployeeBrm: true,
      isAdmin: false,
      organizations: ['Acme Imaging'],
    });
  });

  it('changes the name and email of a person in place', async () => {
    const person = {
      id: 'p7',
      username: 'jbrm',
      givenName: 'Jo',
      familyName: 'Brm',
      email: 'jo@hospital.example',
      isEmployeeBrm: true,
      isAdmin: false,
      isAuditor: false,
      status: 'active',
      organizations: [],
    };
    const server = setup({
      [`GET ${adminApi.people}`]: { data: { people: [person] } },
      [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } },
      [`PATCH ${adminApi.people}/p7`]: { data: { success: true } },
    });
    renderApp('/admin/people');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit name and email of jbrm' }));
    const form = screen.getByRole('form', { name: 'Name and email of jbrm' });
    const given = within(form).getByLabelText('Given name');
    await userEvent.clear(given);
    await userEvent.type(given, 'Joanna');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('jbrm changed.')).toBeTruthy();
    expect(server.requests.find((r) => r.key === `PATCH ${adminApi.people}/p7`)?.data).toEqual({
      givenName: 'Joanna',
      familyName: 'Brm',
      email: 'jo@hospital.example',
    });
  });

  it('asks before a right changes and says what it grants or removes', async () => {
    const person = {
      id: 'p8',
      username: 'kemp',
      givenName: 'Kim',
      familyName: 'Emp',
      email: 'kim@hospital.example',
      isEmployeeBrm: false,
      isAdmin: true,
      isAuditor: false,
      status: 'active',
      organizations: ['Acme Imaging'],
    };
    const server = setup({
      [`GET ${adminApi.people}`]: { data: { people: [person] } },
      [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } },
      [`PATCH ${adminApi.people}/p8`]: { data: { success: true } },
    });
    const patches = () => server.requests.filter((r) => r.key === `PATCH ${adminApi.people}/p8`);
    renderApp('/admin/people');
    const row = (await screen.findByText('kemp')).closest('tr')!;
    await userEvent.click(within(row).getByRole('checkbox', { name: 'BRM' }));
    let dialog = await screen.findByRole('dialog', { name: 'Make kemp a BRM?' });
    expect(dialog.textContent).toContain('approves or denies the registrations and access requests');
    expect(dialog.textContent).toContain('Acme Imaging');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(patches()).toHaveLength(0);

    await userEvent.click(within(row).getByRole('checkbox', { name: 'Admin' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove the admin rights of kemp?' });
    expect(dialog.textContent).toContain('no longer reach Administration');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove admin rights' }));
    expect(await screen.findByText('kemp changed.')).toBeTruthy();
    expect(patches().map((r) => r.data)).toEqual([{ isAdmin: false }]);
  });

  it('previews the system message as it is typed', async () => {
    setup({
      [`GET ${adminApi.systemMessage}`]: {
        data: {
          enabled: false,
          loggedInOnly: false,
          severity: 'info',
          title: '',
          text: '',
          startsAt: null,
          endsAt: null,
        },
      },
    });
    renderApp('/admin/system-message');
    expect(await screen.findByText('No message is shown.')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('Show the message'));
    await userEvent.type(screen.getByLabelText('Text'), 'Upgrade tonight');
    expect(within(screen.getByTestId('message-preview')).getByText('Upgrade tonight')).toBeTruthy();
  });

  it('switches maintenance', async () => {
    const server = setup({
      [`GET ${adminApi.maintenance}`]: { data: { maintenance: false, forcedBySetting: false } },
      [`PUT ${adminApi.maintenance}`]: { data: { maintenance: true, forcedBySetting: false } },
    });
    renderApp('/admin/maintenance');
    await userEvent.click(await screen.findByRole('button', { name: 'Start maintenance' }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.key === `PUT ${adminApi.maintenance}`)?.data).toEqual({
        maintenance: true,
      }),
    );
  });

  it('lists undeliverable mail with its error and resends it', async () => {
    const server = setup({
      [`GET ${adminApi.mail}`]: {
        data: {
          mails: [
            {
              id: 'm1',
              createdAt: '2026-11-20T10:00:00.000Z',
              recipient: 'x@v.example',
              subject: 'Activate',
              template: 'account-approved',
              status: 'undeliverable',
              attempts: 1,
              lastError: '550 no such user',
            },
          ],
        },
      },
      [`POST /api/admin/mail/m1/resend`]: { data: { success: true } },
    });
    renderApp('/admin/mail');
    expect(await screen.findByText('550 no such user')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Resend the mail to x@v.example' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.key === 'POST /api/admin/mail/m1/resend')).toBe(true),
    );
  });

  it('lists directory changes that keep failing with the directory’s reason, retries one, and shows the last reconciliation', async () => {
    const server = setup({
      [`GET ${adminApi.directory}`]: {
        data: {
          identityStore: 'ldap',
          available: false,
          pending: 3,
          failing: [
            {
              id: 'p1',
              createdAt: '2026-11-20T10:00:00.000Z',
              action: 'role.grant',
              username: 'jdoe',
              organization: null,
              attempts: 4,
              nextAttemptAt: '2026-11-20T10:05:00.000Z',
              lastError: 'Constraint violation: member',
            },
          ],
          lastReport: {
            createdAt: '2026-11-20T02:00:00.000Z',
            drift: 1,
            applied: false,
            report: {
              items: [
                { kind: 'unexpectedMember', username: 'jdoe', group: 'PRA - Vendor Access - Acme - BR' },
              ],
            },
          },
        },
      },
      [`POST /api/admin/directory/p1/retry`]: { data: { success: true } },
    });
    renderApp('/admin/directory');
    expect(await screen.findByText('Constraint violation: member')).toBeTruthy();
    expect(screen.getByText('Does not answer')).toBeTruthy();
    expect(
      screen.getByText(/jdoe is a member of PRA - Vendor Access - Acme - BR, which the portal did not grant/),
    ).toBeTruthy();
    expect(screen.getByText(/1 difference found, not repaired/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry role added for jdoe' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.key === 'POST /api/admin/directory/p1/retry')).toBe(true),
    );
    expect(await screen.findByText('Directory change queued again.')).toBeTruthy();
  });

  it('filters the audit trail, loads older events by cursor, and links the CSV of the filter', async () => {
    setup({
      [`GET ${adminApi.audit}?limit=50`]: { data: { events: [event(1)], nextCursor: 'c1' } },
      [`GET ${adminApi.audit}?limit=50&cursor=c1`]: { data: { events: [event(2)], nextCursor: null } },
      [`GET ${adminApi.audit}?person=jane%40v.example&limit=50`]: {
        data: { events: [event(3)], nextCursor: null },
      },
    });
    renderApp('/admin/audit');
    expect(await screen.findByText('vendor1@v.example')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Show older events' }));
    expect(await screen.findByText('vendor2@v.example')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Person (username or email)'), 'jane@v.example');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('vendor3@v.example')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `${adminApi.auditExport}?person=jane%40v.example`,
    );
  });

  it('makes a service token, shows it once with a copy button, and revokes one after a confirmation', async () => {
    const listed = {
      id: 't1',
      name: 'nightly HR sync',
      scopes: ['people:read'],
      createdBy: 'theadmin',
      owner: 'theadmin',
      createdAt: '2026-11-20T10:00:00.000Z',
      expiresAt: '2027-02-18T10:00:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
      revokedBy: null,
      status: 'active',
    };
    const token = `pra_${'k'.repeat(43)}`;
    const server = setup({
      [`GET ${adminApi.serviceTokens}`]: { data: { tokens: [listed] } },
      [`POST ${adminApi.serviceTokens}`]: {
        data: { success: true, id: 't2', token, expiresAt: '2027-01-01T00:00:00.000Z' },
      },
      [`POST ${adminApi.serviceTokens}/t1/revoke`]: { data: { success: true } },
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/admin/service-tokens');
    expect(await screen.findByText('nightly HR sync')).toBeTruthy();
    const create = screen.getByRole<HTMLButtonElement>('button', { name: 'Create token' });
    expect(create.disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('Token name'), 'audit to SIEM');
    await userEvent.click(screen.getByLabelText(/^audit:read/));
    await userEvent.click(create);
    const shown = await screen.findByLabelText<HTMLInputElement>('New service token');
    expect(shown.value).toBe(token);
    const sent = server.requests.find((r) => r.key === `POST ${adminApi.serviceTokens}`)?.data as {
      name: string;
      scopes: string[];
      expiresAt: string;
    };
    expect(sent).toMatchObject({ name: 'audit to SIEM', scopes: ['audit:read'] });
    expect(new Date(sent.expiresAt).getTime()).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    await userEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(writeText).toHaveBeenCalledWith(token);
    expect(await screen.findByText('Copied.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('New service token')).toBeNull();
    expect(document.body.textContent).not.toContain(token);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke nightly HR sync' }));
    expect(server.requests.some((r) => r.key.endsWith('/revoke'))).toBe(false);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke token' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.key === `POST ${adminApi.serviceTokens}/t1/revoke`)).toBe(true),
    );
  }, 20_000);

  it('marks denied events and filters the audit trail by them (a refused service token)', async () => {
    const denied: AuditEventView = { ...event(9), action: 'service-token.refused', outcome: 'denied' };
    const server = setup({
      [`GET ${adminApi.audit}?limit=50`]: { data: { events: [event(1)], nextCursor: null } },
      [`GET ${adminApi.audit}?outcome=denied&limit=50`]: { data: { events: [denied], nextCursor: null } },
    });
    renderApp('/admin/audit');
    expect(await screen.findByText('vendor1@v.example')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Outcome'), 'Denied');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('(denied)', { exact: false })).toBeTruthy();
    expect(screen.getByText('service-token.refused')).toBeTruthy();
    expect(server.requests.some((r) => r.key === `GET ${adminApi.audit}?outcome=denied&limit=50`)).toBe(true);
  }, 20_000);
});
