import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api, manageUsersMessages, roleName, type ManagedUser } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const brm = makeUser({ type: 'employee', isEmployeeBrm: true, orgs: ['Acme Imaging'] });
const admin = makeUser({ type: 'employee', isAdmin: true, orgs: [] });

function managed(n: number, overrides: Partial<ManagedUser> = {}): ManagedUser {
  return {
    username: `user${String(n).padStart(2, '0')}`,
    givenName: `First${n}`,
    familyName: `Last${n}`,
    email: `user${n}@acme.example`,
    active: true,
    status: 'active',
    canManage: true,
    canResetActivationCode: false,
    ...overrides,
  };
}

function setup(user: typeof brm, users: ManagedUser[]) {
  return installFakeServer({
    ...bootReplies(signedIn(), user),
    [`GET ${api.managedUsers}`]: { data: users },
    [`POST ${api.enableOrDisableUser}`]: { data: { success: true } },
    [`POST ${api.sendOtpEmail}`]: { data: { success: true } },
    [`POST ${api.resetActivationCode}`]: { data: { success: true } },
    [`GET ${api.currentAccess}?username=user01`]: {
      data: [{ name: roleName('Acme Imaging'), display: 'Acme Imaging' }],
    },
    [`GET ${api.pendingAccess}?username=user01`]: { data: [] },
    [`GET ${api.availableRoles}?username=user01`]: { data: [] },
  });
}

describe('Manage Users', () => {
  it('opens Manage Access for the chosen user as a modal, and closes it', async () => {
    setup(brm, [managed(1)]);
    renderApp('/brm/manage-users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user01' }));
    await userEvent.click(screen.getByRole('button', { name: 'Manage Access' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Access for user01' });
    expect(within(dialog).getByRole('button', { name: /Current Access/ })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists users ten per page, counts them, filters, and shows disabled rows in italic', async () => {
    setup(brm, [
      ...Array.from({ length: 11 }, (_, i) => managed(i + 1)),
      managed(12, { active: false, status: 'disabled', email: 'gone@acme.example' }),
    ]);
    renderApp('/brm/manage-users');
    expect(await screen.findByText('Managing 12 users')).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent?.replace(/[▲▼↕]/g, ''));
    expect(headers).toEqual(['Actions', 'Username', 'First Name', 'Last Name', 'Email', 'Status']);
    expect(screen.getAllByRole('row')).toHaveLength(11);
    await userEvent.type(screen.getByLabelText('Filter by username, email or name'), 'gone@');
    const row = screen.getByText('gone@acme.example').closest('tr')!;
    expect(row.className).toContain('fst-italic');
    expect(within(row).getByText('Disabled')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Filter by username, email or name'));
    await userEvent.type(screen.getByLabelText('Filter by username, email or name'), 'nothing-matches');
    expect(screen.getByText('No users found')).toBeTruthy();
  });

  it('disables a user with the spec message and offers no reset to a BRM', async () => {
    const server = setup(brm, [managed(1)]);
    renderApp('/brm/manage-users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user01' }));
    expect(screen.queryByRole('button', { name: 'Reset Account Activation Code' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Disable User' }));
    expect(await screen.findByText('User user01 is now disabled')).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.enableOrDisableUser}`)?.data).toEqual({
      enable: false,
      targetUsername: 'user01',
    });
  });

  it('shows the refusal to disable a vendor shared with other organizations, and keeps the row enabled', async () => {
    const server = setup(brm, [managed(1)]);
    server.replies.set(`POST ${api.enableOrDisableUser}`, {
      status: 403,
      data: { errors: [manageUsersMessages.disableShared] },
    });
    renderApp('/brm/manage-users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user01' }));
    await userEvent.click(screen.getByRole('button', { name: 'Disable User' }));
    expect(await screen.findByText(manageUsersMessages.disableShared)).toBeTruthy();
    expect(within(screen.getByText('user01').closest('tr')!).getByText('Enabled')).toBeTruthy();
  });

  it('lets an admin reset the code of a pending account; the one-time password mail needs an active one', async () => {
    setup(admin, [managed(1, { active: false, status: 'pendingActivation', canResetActivationCode: true })]);
    renderApp('/brm/manage-users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user01' }));
    expect(
      screen.getByRole('button', { name: 'Send One-Time Password E-mail' }).getAttribute('aria-disabled'),
    ).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Account Activation Code' }));
    await waitFor(() => expect(screen.getByText('Successfully reset activation code')).toBeTruthy());
  });

  it('offers on each user what the server’s rights on it allow, whoever the viewer is', async () => {
    // An admin viewer, yet no reset on user01 and nothing on user02: the rights decide, not the kind.
    setup(admin, [
      managed(1, { active: false, status: 'pendingActivation' }),
      managed(2, { canManage: false }),
    ]);
    renderApp('/brm/manage-users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user01' }));
    const first = within(screen.getByText('user01').closest('tr')!);
    expect(first.getByRole('button', { name: 'Manage Access' }).getAttribute('aria-disabled')).toBeNull();
    expect(first.queryByRole('button', { name: 'Reset Account Activation Code' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Actions for user02' }));
    const second = within(screen.getByText('user02').closest('tr')!);
    for (const name of ['Disable User', 'Send One-Time Password E-mail', 'Manage Access']) {
      expect(second.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    }
  });

  it('shows an account pending activation as such, not as a disabled account in italics', async () => {
    setup(brm, [
      managed(1, { active: false, status: 'pendingActivation' }),
      managed(2),
      managed(3, { active: false, status: 'disabled' }),
    ]);
    renderApp('/brm/manage-users');
    const row = (await screen.findByText('user1@acme.example')).closest('tr')!;
    expect(within(row).getByRole('cell', { name: 'Pending activation' })).toBeTruthy();
    expect(row.className).not.toContain('fst-italic');
    expect(within(screen.getByText('user2@acme.example').closest('tr')!).getByText('Enabled')).toBeTruthy();
    const disabled = screen.getByText('user3@acme.example').closest('tr')!;
    expect(within(disabled).getByRole('cell', { name: 'Disabled' })).toBeTruthy();
    expect(disabled.className).toContain('fst-italic');
  });
});
