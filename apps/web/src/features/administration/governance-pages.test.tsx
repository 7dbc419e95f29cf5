import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  adminApi,
  policyMessages,
  routingApi,
  type AdminOrganization,
  type AdminPerson,
  type EndingRow,
  type GovernancePolicies,
  type GovernanceSettings,
} from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn, type FakeReply } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';
import { adminListRoutes } from '../../test/admin-list-routes';

// Governance's admin screens (GOVERNANCE.md §2.3, §3.2, §5.2) against a fake server.

const admin = makeUser({ type: 'employee', isAdmin: true, orgs: [] });
const auditor = makeUser({ type: 'employee', isAdmin: true, isAuditor: true, orgs: [] });
const org: AdminOrganization = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Acme Imaging',
  roleName: 'PRA - Vendor Access - Acme Imaging - BR',
  isActive: true,
  domains: ['acme.example'],
  brms: ['bbrown'],
  riskTier: 'standard',
  contractEndsOn: null,
};
const settings: GovernanceSettings = {
  accessDays: 180,
  maxAccessDays: 365,
  extensionJustificationRequired: false,
  expiryNoticeDays: [14, 7, 1],
  reviewCadenceMonths: 3,
  reviewWindowDays: 14,
  reviewerReminderDays: [7, 13],
  reviewEscalationDay: 10,
  reviewDefaultAction: 'remove',
  reviewerJustification: 'remove',
  vendorConfirmation: 'optional',
  inactivityRecommendationDays: 90,
  requestDecisionDays: 14,
  approverReminderDays: [3, 7],
  forwardDay: 8,
  inactivityDisableDays: 90,
  inactivityWarningDays: [14, 7],
  terminateAfterDisableDays: 30,
  neverActivatedCloseDays: 30,
  signInStrength: 'mfa',
  passkeyGraceDays: 30,
  aupRenewalDays: 365,
  aupGraceDays: 30,
  emergencyMaxHours: 72,
  departureDecisionHours: 24,
  departureSuspendAtOnce: false,
};
const policies = (canEdit: boolean): GovernancePolicies => ({
  policies: [
    {
      tier: 'standard',
      settings,
      updatedAt: '2026-11-20T10:00:00.000Z',
      updatedBy: null,
      version: 'v-standard',
    },
    {
      tier: 'high',
      settings: { ...settings, accessDays: 90, maxAccessDays: 180 },
      updatedAt: '2026-11-20T10:00:00.000Z',
      updatedBy: 'admin',
      version: 'v-high',
    },
  ],
  canEdit,
});

function setup(replies: Record<string, FakeReply>, user = admin) {
  return installFakeServer({ ...bootReplies(signedIn(), user), ...replies }, adminListRoutes(replies));
}

describe('Governance policies', () => {
  it('shows both tiers; an admin edits one, refused values beside their field, then saved with its version', async () => {
    const server = setup({
      [`GET ${adminApi.governancePolicies}`]: { data: policies(true) },
      [`PUT ${adminApi.governancePolicies}`]: { data: { success: true } },
    });
    renderApp('/admin/governance');
    const row = await screen.findByRole('row', { name: /^Access granted for/ });
    expect(row.textContent).toContain('180 days');
    expect(row.textContent).toContain('90 days');
    await userEvent.click(screen.getByRole('button', { name: 'Edit the high tier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the high tier’s policy' });
    const days = within(dialog).getByLabelText(/^Access granted for/);
    await userEvent.clear(days);
    await userEvent.type(days, '400');
    const reminders = within(dialog).getByLabelText(/^Approver reminders/);
    await userEvent.clear(reminders);
    await userEvent.type(reminders, '2, 20');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(policyMessages.accessDaysOverCap)).toBeTruthy();
    expect(within(dialog).getByText(policyMessages.remindersAfterDeadline)).toBeTruthy();
    expect(days.getAttribute('aria-invalid')).toBe('true');
    expect(server.requests.some((r) => r.key.startsWith('PUT'))).toBe(false);
    await userEvent.clear(days);
    await userEvent.type(days, '60');
    await userEvent.clear(reminders);
    await userEvent.type(reminders, '2 4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(policyMessages.saved('high'))).toBeTruthy();
    expect(server.requests.find((r) => r.key.startsWith('PUT'))?.data).toEqual({
      tier: 'high',
      version: 'v-high',
      settings: { ...settings, accessDays: 60, maxAccessDays: 180, approverReminderDays: [2, 4] },
    });
  });

  it('tells an admin whose version is stale to reload', async () => {
    setup({
      [`GET ${adminApi.governancePolicies}`]: { data: policies(true) },
      [`PUT ${adminApi.governancePolicies}`]: {
        status: 409,
        data: { errors: [policyMessages.changedMeanwhile] },
      },
    });
    renderApp('/admin/governance');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit the standard tier' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(policyMessages.changedMeanwhile)).toBeTruthy();
  });

  it('is read-only for an auditor', async () => {
    setup({ [`GET ${adminApi.governancePolicies}`]: { data: policies(false) } }, auditor);
    renderApp('/admin/governance');
    expect(await screen.findByText(/only admins who are not auditors can change them/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Edit the/ })).toBeNull();
  });
});

describe('Organizations: risk tier and contract end', () => {
  it('saves both and says how many current grants end later', async () => {
    const server = setup({
      [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } },
      [`PATCH ${adminApi.organizations}/${org.id}`]: { data: { success: true, grantsPastContractEnd: 3 } },
    });
    renderApp('/admin/organizations');
    await userEvent.selectOptions(await screen.findByLabelText('Risk tier of Acme Imaging'), 'high');
    const date = screen.getByLabelText('Contract ends on');
    await userEvent.type(date, '2027-06-30');
    await userEvent.click(
      within(screen.getByRole('form', { name: 'Risk tier and contract of Acme Imaging' })).getByRole(
        'button',
        {
          name: 'Save',
        },
      ),
    );
    expect(await screen.findByText(/3 current grants end after the contract end/)).toBeTruthy();
    expect(server.requests.find((r) => r.key.startsWith('PATCH'))?.data).toEqual({
      riskTier: 'high',
      contractEndsOn: '2027-06-30',
    });
  });

  it('shows the refusal of a date beside the field', async () => {
    setup({
      [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } },
      [`PATCH ${adminApi.organizations}/${org.id}`]: {
        status: 400,
        data: { errors: ['contractEndsOn: The contract end date cannot be in the past.'] },
      },
    });
    renderApp('/admin/organizations');
    const date = await screen.findByLabelText('Contract ends on');
    await userEvent.type(date, '2020-01-01');
    await userEvent.click(
      within(screen.getByRole('form', { name: 'Risk tier and contract of Acme Imaging' })).getByRole(
        'button',
        {
          name: 'Save',
        },
      ),
    );
    await waitFor(() =>
      expect(document.getElementById(date.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        'The contract end date cannot be in the past.',
      ),
    );
  });

  it('offers an auditor no change', async () => {
    setup({ [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } } }, auditor);
    renderApp('/admin/organizations');
    expect((await screen.findByLabelText<HTMLSelectElement>('Risk tier of Acme Imaging')).disabled).toBe(
      true,
    );
    expect(screen.queryByLabelText('New organization name')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Deactivate Acme Imaging' }).disabled).toBe(
      true,
    );
  });
});

describe('People: approvers and auditors', () => {
  const brm: AdminPerson = {
    id: 'p1',
    username: 'bbrown',
    givenName: 'Bea',
    familyName: 'Brown',
    email: 'bea@hospital.example',
    isEmployeeBrm: true,
    isAdmin: false,
    isAuditor: false,
    status: 'active',
    organizations: ['Acme Imaging'],
  };
  const routing = (kind: 'primary' | 'backup') => ({
    assignments: [{ personId: 'p1', organizationId: org.id, organization: org.name, kind }],
    unreachable: kind === 'backup' ? [{ id: org.id, name: org.name }] : [],
  });

  it('lists organizations without a reachable approver, switches a BRM to backup, and asks before making an auditor', async () => {
    const server = setup({
      [`GET ${adminApi.people}`]: { data: { people: [brm] } },
      [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } },
      [`GET ${routingApi.overview}`]: { data: routing('backup') },
      [`PUT /api/admin/people/p1/organizations/${org.id}`]: { data: { success: true } },
      [`PATCH ${adminApi.people}/p1`]: { data: { success: true } },
    });
    renderApp('/admin/people');
    const warning = (await screen.findByText('Organizations without a reachable approver')).closest(
      '[role="alert"]',
    )!;
    expect(warning.textContent).toContain('Organizations without a reachable approver');
    expect(warning.textContent).toContain('Acme Imaging');
    const kind = await screen.findByLabelText('Approver for Acme Imaging: bbrown');
    await userEvent.selectOptions(kind, 'primary');
    expect(await screen.findByText('bbrown is now primary BRM of Acme Imaging.')).toBeTruthy();
    expect(server.requests.find((r) => r.key.startsWith('PUT'))?.data).toEqual({ kind: 'primary' });
    await userEvent.click(screen.getByLabelText('Auditor (read-only)'));
    const confirm = await screen.findByRole('dialog', { name: 'Make bbrown an auditor?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Make auditor' }));
    expect(await screen.findByText('bbrown changed.')).toBeTruthy();
    expect(server.requests.find((r) => r.key.startsWith('PATCH'))?.data).toEqual({ isAuditor: true });
  });

  it('offers an auditor no change', async () => {
    setup(
      {
        [`GET ${adminApi.people}`]: { data: { people: [brm] } },
        [`GET ${adminApi.organizations}`]: { data: { organizations: [org] } },
        [`GET ${routingApi.overview}`]: { data: routing('primary') },
      },
      auditor,
    );
    renderApp('/admin/people');
    expect(
      (await screen.findByLabelText<HTMLSelectElement>('Approver for Acme Imaging: bbrown')).disabled,
    ).toBe(true);
    expect(screen.queryByRole('form', { name: 'Add a person' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove bbrown' })).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Auditor (read-only)').disabled).toBe(true);
  });
});

describe('Access ending', () => {
  const row = (n: number): EndingRow => ({
    organization: 'Acme Imaging',
    organizationId: org.id,
    username: `vendor${n}`,
    vendor: `Vendor ${n}`,
    email: `vendor${n}@acme.example`,
    endsOn: '2026-12-0' + String(n),
    daysLeft: n,
    sponsor: n === 2 ? null : 'Bea Brown',
    extensionPending: n === 3,
  });

  it('asks the server for one page with the window and organization, and links the CSV of the same filters', async () => {
    const server = installFakeServer(
      {
        ...bootReplies(signedIn(), admin),
        [`GET ${adminApi.reportOrganizations}`]: {
          data: { organizations: [{ id: org.id, name: org.name }] },
        },
      },
      {
        [`GET ${adminApi.reportEnding}`]: (query) => ({
          data: {
            items: query.get('days') === '7' ? [row(2)] : [row(2), row(3)],
            total: 2,
            matching: query.get('days') === '7' ? 1 : 2,
            page: 1,
            size: 25,
            from: '2026-11-26',
            until: '2026-12-26',
          },
        }),
      },
    );
    renderApp('/admin/reports/ending');
    const table = await screen.findByRole('table', { name: 'Access ending' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getByText('No sponsor')).toBeTruthy();
    expect(within(table).getByText('Pending')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Ending within'), '7');
    await userEvent.selectOptions(screen.getByLabelText('Organization'), org.id);
    await waitFor(() =>
      expect(server.requests.map((r) => r.key)).toContainEqual(
        `GET ${adminApi.reportEnding}?page=1&size=25&sort=endsOn&direction=asc&days=7&organization=${org.id}`,
      ),
    );
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `${adminApi.reportEndingCsv}?days=7&organization=${org.id}`,
    );
  });
});

describe('Vendor Access', () => {
  it('shows the period the server used in From and To, and asks for the one chosen', async () => {
    const server = installFakeServer(
      {
        ...bootReplies(signedIn(), admin),
        [`GET ${adminApi.reportOrganizations}`]: {
          data: { organizations: [{ id: org.id, name: org.name }] },
        },
      },
      {
        [`GET ${adminApi.reportVendorAccess}`]: (query) => ({
          data: {
            items: [],
            total: 0,
            matching: 0,
            page: 1,
            size: 25,
            from: query.get('from') ?? '2026-08-28',
            to: '2026-11-26',
          },
        }),
      },
    );
    renderApp('/admin/reports/vendor-access');
    const from = await screen.findByLabelText<HTMLInputElement>('From');
    await waitFor(() => expect(from.value).toBe('2026-08-28'));
    expect(screen.getByLabelText<HTMLInputElement>('To').value).toBe('2026-11-26');
    // Nothing chosen yet: the call leaves the period to the server.
    expect(server.requests.map((r) => r.key).filter((k) => k.includes('from='))).toEqual([]);
    await userEvent.clear(from);
    await userEvent.type(from, '2026-10-01');
    await waitFor(() =>
      expect(server.requests.map((r) => r.key).some((k) => k.includes('from=2026-10-01'))).toBe(true),
    );
    expect(from.value).toBe('2026-10-01');
  });
});
