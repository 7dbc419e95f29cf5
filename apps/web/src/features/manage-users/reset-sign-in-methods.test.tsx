import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api, manageUsersMessages, type ManagedUser } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, pagedList, signedIn } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';
import { askInfosecHref } from './reset-sign-in-methods';

// Manage Users → Reset Sign-in Methods (GOVERNANCE.md §7.3).

const brm = makeUser({ type: 'employee', isEmployeeBrm: true, orgs: ['Acme Imaging'] });
const admin = makeUser({ type: 'employee', isAdmin: true, orgs: [] });

const vendor = (overrides: Partial<ManagedUser> = {}): ManagedUser => ({
  username: 'kvendor',
  givenName: 'Kim',
  familyName: 'Keys',
  email: 'kim@acme.example',
  active: true,
  status: 'active',
  canManage: true,
  canResetActivationCode: false,
  signInMethod: 'securityKey',
  ...overrides,
});

function setup(user: typeof brm, users: ManagedUser[]) {
  return installFakeServer(
    {
      ...bootReplies(signedIn(), user),
      [`POST ${api.resetSignInMethods}`]: { data: { success: true } },
    },
    {
      [`GET ${api.managedUsers}`]: pagedList(users, (u) => [u.username], { username: (u) => u.username }),
    },
  );
}

async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Actions for kvendor' }));
  await userEvent.click(screen.getByRole('button', { name: 'Reset Sign-in Methods' }));
  return screen.findByRole('dialog', { name: 'Reset Sign-in Methods' });
}

describe('Reset Sign-in Methods', () => {
  it('an admin resets an MFA account with the dialog’s words; the identity check is optional and recorded', async () => {
    const server = setup(admin, [vendor({ canResetActivationCode: true, keyRequired: false })]);
    renderApp('/brm/manage-users');
    const dialog = await openDialog();
    expect(
      within(dialog).getByText(
        "This removes all of Kim Keys's security keys and authenticator apps. They will set new ones at their next sign-in.",
      ),
    ).toBeTruthy();
    const check = within(dialog).getByRole('checkbox', { name: "I verified Kim Keys's identity" });
    expect((check as HTMLInputElement).checked).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset Sign-in Methods' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.find((r) => r.key === `POST ${api.resetSignInMethods}`)?.data).toEqual({
      username: 'kvendor',
      identityVerified: false,
    });
    expect(await screen.findByText(manageUsersMessages.signInMethodsReset('kvendor'))).toBeTruthy();
  });

  it('needs the identity check for an account that must use a key (new activation code), by keyboard', async () => {
    const server = setup(admin, [vendor({ canResetActivationCode: true, keyRequired: true })]);
    renderApp('/brm/manage-users');
    const dialog = await openDialog();
    expect(within(dialog).getByText(manageUsersMessages.newActivationCodeNote('Kim Keys'))).toBeTruthy();
    const submit = within(dialog).getByRole('button', { name: 'Reset Sign-in Methods' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    const check = within(dialog).getByRole('checkbox', { name: "I verified Kim Keys's identity" });
    check.focus();
    await userEvent.keyboard(' ');
    expect((submit as HTMLButtonElement).disabled).toBe(false);
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.requests.find((r) => r.key === `POST ${api.resetSignInMethods}`)?.data).toEqual({
        username: 'kvendor',
        identityVerified: true,
      }),
    );
  });

  it('a BRM gets "Ask InfoSec to reset", a mail draft naming the vendor, and no dialog', async () => {
    setup(brm, [vendor()]);
    renderApp('/brm/manage-users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for kvendor' }));
    expect(screen.queryByRole('button', { name: 'Reset Sign-in Methods' })).toBeNull();
    const ask = screen.getByText('Ask InfoSec to reset').closest('a');
    expect(ask?.getAttribute('href')).toBe(askInfosecHref(vendor()));
    const href = decodeURIComponent(askInfosecHref(vendor()));
    expect(href).toMatch(/^mailto:[^?]+\?subject=Reset sign-in methods of kvendor&body=/);
    expect(href).toContain('Kim Keys (username kvendor, kim@acme.example)');
  });
});
