import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api, manageUsersMessages, roleName, type ManagedUser } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, pagedList, signedIn } from '../../test/fake-server';
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

const statusText = (u: ManagedUser) =>
  u.status === 'pendingActivation' ? 'Pending activation' : u.active ? 'Enabled' : 'Disabled';

/** The server's paging of the list (filter over username, email and name; each column sorts). */
function usersRoute(users: ManagedUser[], until?: Promise<unknown>) {
  return pagedList(
    users,
    (u) => [u.username, u.email, u.givenName, u.familyName, `${u.givenName} ${u.familyName}`],
    {
      username: (u) => u.username,
      givenName: (u) => u.givenName,
      familyName: (u) => u.familyName,
      email: (u) => u.email,
      status: statusText,
    },
    until,
  );
}

function setup(user: typeof brm, users: ManagedUser[]) {
  return installFakeServer(
    {
      ...bootReplies(signedIn(), user),
      [`POST ${api.enableOrDisableUser}`]: { data: { success: true } },
      [`POST ${api.sendOtpEmail}`]: { data: { success: true } },
      [`POST ${api.resetActivationCode}`]: { data: { success: true } },
      [`GET ${api.currentAccess}?username=user01`]: {
        data: [{ name: roleName('Acme Imaging'), display: 'Acme Imaging' }],
      },
      [`GET ${api.pendingAccess}?username=user01`]: { data: [] },
      [`GET ${api.availableRoles}?username=user01`]: { data: [] },
    },
    { [`GET ${api.managedUsers}`]: usersRoute(users) },
  );
}

const listCalls = (server: ReturnType<typeof setup>) =>
  server.requests.filter((r) => r.key.startsWith(`GET ${api.managedUsers}`));

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
    // The server filters, once typing pauses.
    const row = (await screen.findByText('gone@acme.example')).closest('tr')!;
    expect(row.className).toContain('fst-italic');
    expect(within(row).getByText('Disabled')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Filter by username, email or name'));
    await userEvent.type(screen.getByLabelText('Filter by username, email or name'), 'nothing-matches');
    expect(await screen.findByText('No users found')).toBeTruthy();
    expect(screen.getByText('Managing 12 users')).toBeTruthy();
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

  it('asks the server for one page at a time, the filter once typing pauses, and withdraws a superseded call', async () => {
    const server = setup(
      brm,
      Array.from({ length: 25 }, (_, i) => managed(i + 1)),
    );
    renderApp('/brm/manage-users');
    expect(await screen.findByText('Managing 25 users')).toBeTruthy();
    expect(listCalls(server).map((r) => r.key)).toEqual([
      `GET ${api.managedUsers}?page=1&size=10&sort=username&direction=asc`,
    ]);
    // The spec's pagination: page links, the next page asked of the server.
    const pages = screen.getByRole('navigation', { name: 'Users pages' });
    expect(
      within(pages)
        .getAllByRole('button', { name: /^Page \d$/ })
        .map((b) => b.textContent),
    ).toEqual(['1', '2', '3']);
    await userEvent.click(within(pages).getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('user25')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(6);
    expect(listCalls(server).at(-1)?.key).toBe(
      `GET ${api.managedUsers}?page=3&size=10&sort=username&direction=asc`,
    );

    // Typing sends nothing until it pauses; then one call for what was typed, from page 1.
    const before = listCalls(server).length;
    await userEvent.type(screen.getByLabelText('Filter by username, email or name'), 'user1');
    expect(listCalls(server).length).toBe(before);
    await waitFor(() => expect(screen.queryByText('user25')).toBeNull());
    expect(
      listCalls(server)
        .slice(before)
        .map((r) => r.key),
    ).toEqual([`GET ${api.managedUsers}?page=1&size=10&filter=user1&sort=username&direction=asc`]);
    expect(screen.getByText('Managing 25 users')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Users pages' })).toBeTruthy();

    // A call still under way when the sort changes is withdrawn, and its late answer is not shown.
    let release: (value?: unknown) => void = () => {};
    server.routes.set(
      `GET ${api.managedUsers}`,
      usersRoute(
        Array.from({ length: 25 }, (_, i) => managed(i + 1)),
        new Promise((resolve) => (release = resolve)),
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: /^Email/ }));
    await waitFor(() => expect(listCalls(server).at(-1)?.key).toContain('sort=email&direction=asc'));
    const superseded = listCalls(server).at(-1)!;
    server.routes.set(
      `GET ${api.managedUsers}`,
      usersRoute(Array.from({ length: 25 }, (_, i) => managed(i + 1))),
    );
    await userEvent.click(screen.getByRole('button', { name: /^Email/ }));
    await waitFor(() => expect(listCalls(server).at(-1)?.key).toContain('sort=email&direction=desc'));
    await waitFor(() => expect(superseded.signal?.aborted).toBe(true));
    release();
    await waitFor(() => expect(screen.getAllByRole('row')[1]?.textContent).toContain('user19'));
  });
});
