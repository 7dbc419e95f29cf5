import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api, roleName, type CurrentRole } from '@pra/contracts';
import { accessExpiryMessages } from '@pra/contracts/access-expiry';
import { AlertToasts } from '../alert-toasts';
import { createQueryClient } from '../../lib/query-client';
import { installFakeServer } from '../../test/fake-server';
import { ManageAccess } from './manage-access';

// Current Access's end dates and the end-date dialog (GOVERNANCE.md §3.2): a vendor's "Request
// extension", a manager's "Change end date", and the welcome link that opens the dialog.

const held = (over: Partial<CurrentRole> = {}): CurrentRole => ({
  name: roleName('Acme Imaging'),
  display: 'Acme Imaging',
  expiresAt: '2027-03-21T03:59:59.000Z',
  endsOn: '2027-03-20',
  daysLeft: 5,
  sponsor: { name: 'Beatrice Brown', email: 'beatrice.brown@hospital.example' },
  extensionPending: false,
  defaultEndsOn: '2027-08-28',
  maxEndsOn: '2028-02-29',
  ...over,
});

function setup(username: string, roles: CurrentRole[], extra = {}) {
  const q = `?username=${username}`;
  return installFakeServer({
    [`GET ${api.currentAccess}${q}`]: { data: roles },
    [`GET ${api.pendingAccess}${q}`]: { data: [] },
    [`GET ${api.availableRoles}${q}`]: { data: [] },
    [`POST ${api.clientLog}`]: { data: {} },
    ...extra,
  });
}

function renderAccess(username: string, isManager: boolean, extendRole?: string) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ManageAccess
        username={username}
        email={`${username}@acme.example`}
        isManager={isManager}
        canShowAll={false}
        extendRole={extendRole}
      />
      <AlertToasts />
    </QueryClientProvider>,
  );
}

describe('end dates on Manage Access', { timeout: 20_000 }, () => {
  it('shows when each role ends (red under 7 days) and its sponsor; a vendor asks for an extension', async () => {
    const server = setup(
      'vendor1',
      [
        held(),
        held({
          name: roleName('Globex'),
          display: 'Globex',
          sponsor: null,
          daysLeft: 40,
          endsOn: '2027-04-24',
          extensionPending: true,
        }),
      ],
      {
        [`POST ${api.extendAccess}`]: { data: { requestId: 'r1' } },
      },
    );
    const user = userEvent.setup();
    renderAccess('vendor1', false);
    await user.click(await screen.findByRole('button', { name: /Current Access/ }));
    const current = await screen.findByRole('dialog', { name: 'Current Access' });
    expect(within(current).getByText('2027-03-20 (5 days)').className).toContain('text-danger');
    expect(within(current).getByText('2027-04-24 (40 days)').className).not.toContain('text-danger');
    expect(within(current).getByText('Beatrice Brown')).toBeTruthy();
    expect(within(current).getByText(accessExpiryMessages.noSponsor)).toBeTruthy();
    expect(within(current).getByText('Extension pending')).toBeTruthy();
    // A pending extension offers no second one.
    expect(within(current).queryByRole('button', { name: 'Request extension for Globex' })).toBeNull();
    await user.click(within(current).getByRole('button', { name: 'Request extension for Acme Imaging' }));

    const dialog = await screen.findByRole('dialog', { name: 'Request extension for Acme Imaging' });
    expect(within(dialog).getByText('Current end: 2027-03-20')).toBeTruthy();
    expect(within(dialog).getByText('No later than 2028-02-29')).toBeTruthy();
    const date = within(dialog).getByLabelText<HTMLInputElement>('New end date');
    expect(date.value).toBe('2027-08-28');
    // Past the cap: the dialog's message, nothing sent.
    await user.clear(date);
    await user.type(date, '2028-03-01');
    await user.click(within(dialog).getByRole('button', { name: 'Request Extension' }));
    expect(
      within(dialog).getByText(accessExpiryMessages.extensionDate('2027-03-20', '2028-02-29')),
    ).toBeTruthy();
    expect(within(dialog).getByText('Required')).toBeTruthy();
    expect(server.requests.some((r) => r.key === `POST ${api.extendAccess}`)).toBe(false);
    await user.clear(date);
    await user.type(date, '2027-09-30');
    await user.type(within(dialog).getByLabelText('Justification'), 'Phase two');
    await user.click(within(dialog).getByRole('button', { name: 'Request Extension' }));
    expect(await screen.findByText(accessExpiryMessages.extensionSubmitted)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.extendAccess}`)?.data).toEqual({
      name: roleName('Acme Imaging'),
      requestedUntil: '2027-09-30',
      justification: 'Phase two',
    });
  });

  it('opens the dialog of the role the welcome alert linked', async () => {
    setup('vendor2', [held()]);
    renderAccess('vendor2', false, roleName('Acme Imaging'));
    expect(await screen.findByRole('dialog', { name: 'Request extension for Acme Imaging' })).toBeTruthy();
  });

  it('lets a manager change the end date within the policy', async () => {
    const server = setup('vendor3', [held()], {
      [`POST ${api.setAccessEnd}`]: {
        data: { success: true, endsOn: '2027-03-16', expiresAt: '2027-03-17T03:59:59.000Z' },
      },
    });
    const user = userEvent.setup();
    renderAccess('vendor3', true);
    await user.click(await screen.findByRole('button', { name: /Current Access/ }));
    await user.click(await screen.findByRole('button', { name: 'Change end date of Acme Imaging' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change end date for Acme Imaging' });
    const date = within(dialog).getByLabelText<HTMLInputElement>('New end date');
    expect(date.value).toBe('2027-03-20');
    expect(within(dialog).queryByLabelText('Justification')).toBeNull();
    // Today is 2027-03-15 (the end less the days left): yesterday is refused.
    await user.clear(date);
    await user.type(date, '2027-03-14');
    await user.click(within(dialog).getByRole('button', { name: 'Change End Date' }));
    expect(
      within(dialog).getByText('The end date must be in the future and no later than 2028-02-29'),
    ).toBeTruthy();
    await user.clear(date);
    await user.type(date, '2027-03-16');
    await user.click(within(dialog).getByRole('button', { name: 'Change End Date' }));
    expect(await screen.findByText(accessExpiryMessages.endDateChanged)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.setAccessEnd}`)?.data).toEqual({
      targetUsername: 'vendor3',
      name: roleName('Acme Imaging'),
      accessEndsOn: '2027-03-16',
    });
  });
});
