import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api, roleName, type AvailableRole } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { AlertToasts } from '../alert-toasts';
import { createQueryClient } from '../../lib/query-client';
import { installFakeServer, type FakeReply } from '../../test/fake-server';
import { ManageAccessModal } from './manage-access-modal';
import { ManageAccess } from './manage-access';

const role = (name: string): AvailableRole => ({ displayableName: name, name: roleName(name) });
const ORGS = Array.from({ length: 12 }, (_, i) => `Org ${String(i + 1).padStart(2, '0')}`);
const q = (username: string) => `?username=${username}`;

function setup(username: string, extra: Record<string, FakeReply> = {}) {
  return installFakeServer({
    [`GET ${api.currentAccess}${q(username)}`]: {
      data: [{ name: roleName('Held Org'), display: 'Held Org' }],
    },
    [`GET ${api.pendingAccess}${q(username)}`]: {
      data: [
        {
          id: 'req-1',
          items: [
            {
              display: 'Waiting Org',
              owner: username,
              operation: 'Add',
              expiresAt: '2027-03-15T03:59:59.000Z',
              remindedAt: null,
              submittedOn: '2027-03-01',
              remindedOn: null,
              expiresOn: '2027-03-14',
            },
          ],
        },
      ],
    },
    [`GET ${api.availableRoles}${q(username)}`]: { data: ORGS.map(role) },
    [`GET ${api.availableRoles}${q(username)}&showAll=true`]: { data: [...ORGS, 'Zeta Elsewhere'].map(role) },
    [`POST ${api.clientLog}`]: { data: {} },
    ...extra,
  });
}

function renderWithClient(ui: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      {ui}
      <AlertToasts />
    </QueryClientProvider>,
  );
}

describe('ManageAccess', { timeout: 20_000 }, () => {
  it('shows counts, pages roles by 10, filters and sorts them, and submits a vendor request', async () => {
    const server = setup('vendor1', {
      [`POST ${api.requestAccess}`]: { data: { errors: [], successes: ['Org 12', 'Org 01'] } },
    });
    const user = userEvent.setup();
    renderWithClient(
      <ManageAccess username="vendor1" email="v@acme.example" isManager={false} canShowAll={false} />,
    );
    expect(await screen.findByText('Org 01')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Current Access/ }).textContent).toContain('1');
    expect(screen.getByRole('button', { name: /Pending Access/ }).textContent).toContain('1');
    expect(screen.queryByLabelText('Show all available roles')).toBeNull();
    expect(screen.queryByText('Org 11')).toBeNull(); // page 2
    await user.click(screen.getByRole('button', { name: /Role Name/ }));
    expect(screen.getByText('Org 12')).toBeTruthy(); // descending
    await user.click(screen.getByRole('button', { name: 'Add Org 12' }));
    await user.type(screen.getByLabelText('Filter by name'), '01');
    await user.click(screen.getByRole('button', { name: 'Add Org 01' }));
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Submit' });
    expect(submit.disabled).toBe(true);
    await user.type(screen.getByLabelText('Justification'), 'New support contract');
    await user.click(submit);
    expect(await screen.findByText(accessMessages.requestSubmitted)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.requestAccess}`)?.data).toEqual({
      selectedNames: [roleName('Org 12'), roleName('Org 01')],
      justification: 'New support contract',
      beneficiaryUsername: 'vendor1',
      beneficiaryEmail: 'v@acme.example',
    });
    await waitFor(() => expect(screen.getByText(/No roles selected/)).toBeTruthy());
  });

  it('reports a partial result with the spec’s message', async () => {
    setup('vendor2', {
      [`POST ${api.requestAccess}`]: { data: { errors: ['Org 01'], successes: ['Org 02'] } },
    });
    const user = userEvent.setup();
    renderWithClient(
      <ManageAccess username="vendor2" email="v@acme.example" isManager={false} canShowAll={false} />,
    );
    await user.click(await screen.findByRole('button', { name: 'Add Org 01' }));
    await user.click(screen.getByRole('button', { name: 'Add Org 02' }));
    await user.type(screen.getByLabelText('Justification'), 'Both please');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Roles request failed for Org 01 / succeeded for Org 02')).toBeTruthy();
  });

  it('removes a current role with a reason, and shows the last-organization refusal', async () => {
    const server = setup('vendor3', {
      [`POST ${api.removeAccess}`]: { status: 409, data: { errors: [accessMessages.lastRoleVendor] } },
    });
    const user = userEvent.setup();
    renderWithClient(
      <ManageAccess username="vendor3" email="v@acme.example" isManager={false} canShowAll={false} />,
    );
    await user.click(await screen.findByRole('button', { name: /Current Access/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Current Access' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove Held Org' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove Role' }));
    expect(within(dialog).getByText('Required')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Reason'), 'Project ended');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Role' }));
    expect(await screen.findByText(accessMessages.lastRoleVendor)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.removeAccess}`)?.data).toEqual({
      selectedNames: [roleName('Held Org')],
      justification: 'Project ended',
      beneficiaryUsername: 'vendor3',
    });
  });

  it('cancels a pending request with a reason', async () => {
    const server = setup('vendor4', { [`POST ${api.cancelPendingAccess}`]: { data: { success: true } } });
    const user = userEvent.setup();
    renderWithClient(
      <ManageAccess username="vendor4" email="v@acme.example" isManager={false} canShowAll={false} />,
    );
    await user.click(await screen.findByRole('button', { name: /Pending Access/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Pending Access Requests' });
    expect(within(dialog).getByText('Waiting Org')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /Cancel request Add Waiting Org/ }));
    await user.type(within(dialog).getByLabelText('Reason'), 'Asked by mistake');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Request' }));
    expect(await screen.findByText(accessMessages.cancelled)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.cancelPendingAccess}`)?.data).toEqual({
      requestId: 'req-1',
      reason: 'Asked by mistake',
    });
  });
});

describe('ManageAccess with the keyboard', { timeout: 20_000 }, () => {
  it('keeps focus on the next row after Add, on the result after Submit, in the modal after Cancel Request', async () => {
    setup('vendor5', {
      [`POST ${api.requestAccess}`]: { data: { errors: [], successes: ['Org 01'] } },
      [`POST ${api.cancelPendingAccess}`]: { data: { success: true } },
    });
    const user = userEvent.setup();
    renderWithClient(
      <ManageAccess username="vendor5" email="v@acme.example" isManager={false} canShowAll={false} />,
    );
    (await screen.findByRole('button', { name: 'Add Org 01' })).focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Org 02' }));
    // Removing from the selection: the heading of the (now empty) selection.
    screen.getByRole('button', { name: 'Remove Org 01 from the selection' }).focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Selected Roles' }));
    screen.getByRole('button', { name: 'Add Org 01' }).focus();
    await user.keyboard('{Enter}');
    await user.click(screen.getByLabelText('Justification'));
    await user.keyboard('Support');
    screen.getByRole('button', { name: 'Submit' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findAllByText(accessMessages.requestSubmitted)).not.toHaveLength(0);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: /Pending Access/ })),
    );

    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Pending Access Requests' });
    within(dialog)
      .getByRole('button', { name: /Cancel request Add Waiting Org/ })
      .focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Reason'));
    await user.keyboard('Asked by mistake');
    within(dialog).getByRole('button', { name: 'Cancel Request' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findAllByText(accessMessages.cancelled)).not.toHaveLength(0);
    expect(document.activeElement).toBe(
      within(dialog).getByRole('heading', { name: 'Pending Access Requests' }),
    );
  });
});

describe('ManageAccessModal (a BRM or admin managing another user)', { timeout: 20_000 }, () => {
  it('offers admins every role and adds roles at once with the manager’s message', async () => {
    const server = setup('managed1', {
      [`POST ${api.requestAccess}`]: { data: { errors: [], successes: ['Zeta Elsewhere'] } },
    });
    const user = userEvent.setup();
    renderWithClient(
      <ManageAccessModal
        show
        username="managed1"
        email="m@acme.example"
        canShowAll
        onClose={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Manage Access for managed1' });
    await user.click(within(dialog).getByLabelText('Show all available roles'));
    await user.type(within(dialog).getByLabelText('Filter by name'), 'Zeta');
    await user.click(await within(dialog).findByRole('button', { name: 'Add Zeta Elsewhere' }));
    await user.type(within(dialog).getByLabelText('Justification'), 'Exception');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(accessMessages.rolesAdded)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.requestAccess}`)?.data).toMatchObject({
      beneficiaryUsername: 'managed1',
      selectedNames: [roleName('Zeta Elsewhere')],
    });
  });

  it('removes a role at once with the manager’s message', async () => {
    setup('managed2', { [`POST ${api.removeAccess}`]: { data: { errors: [], successes: ['Held Org'] } } });
    const user = userEvent.setup();
    renderWithClient(
      <ManageAccessModal
        show
        username="managed2"
        email="m@acme.example"
        canShowAll={false}
        onClose={() => undefined}
      />,
    );
    await user.click(await screen.findByRole('button', { name: /Current Access/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Current Access' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove Held Org' }));
    await user.type(within(dialog).getByLabelText('Reason'), 'Offboarding');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Role' }));
    expect(await screen.findByText(accessMessages.roleRemoved)).toBeTruthy();
  });
});
