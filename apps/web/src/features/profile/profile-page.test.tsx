import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api } from '@pra/contracts';
import { profileMessages } from '@pra/contracts/profile';
import { bootReplies, installFakeServer, makeUser, signedIn, type FakeReply } from '../../test/fake-server';
import { GOOD_PASSWORD, makePasswordRequirements } from '../../test/password-policy';
import { renderApp } from '../../test/render-app';

const vendor = makeUser({
  username: 'alovelace',
  givenName: 'Ada',
  familyName: 'Lovelace',
  jobTitle: 'Engineer',
});

function setup(replies: Record<string, FakeReply>) {
  return installFakeServer({
    ...bootReplies(signedIn(), vendor),
    [`GET ${api.passwordRequirements}?username=alovelace`]: { data: makePasswordRequirements(['alovelace']) },
    ...replies,
  });
}

async function fillAndSubmit(current: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Current Password'), current);
  await user.type(screen.getByLabelText('New Password'), GOOD_PASSWORD);
  await user.type(screen.getByLabelText('Confirm Password'), GOOD_PASSWORD);
  const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Submit' });
  await waitFor(() => expect(submit.disabled).toBe(false));
  await user.click(submit);
}

describe('Manage Profile', { timeout: 20_000 }, () => {
  it('shows the profile and changes the password after confirming the current one', async () => {
    const server = setup({
      [`GET ${api.reauthenticate}`]: { data: { authentication: 'success' } },
      [`POST ${api.changePassword}`]: { data: { success: true } },
    });
    renderApp('/vendor/profile');
    expect(await screen.findByText('Lovelace')).toBeTruthy();
    expect(screen.getByText('Engineer')).toBeTruthy();
    await fillAndSubmit('Old-Password-1');
    expect(await screen.findByText(profileMessages.changed)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.changePassword}`)?.data).toEqual({
      newPassword: GOOD_PASSWORD,
    });
    // The current password never goes into a URL or a body.
    expect(server.requests.some((r) => r.key.includes('Old-Password-1'))).toBe(false);
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Current Password').value).toBe(''));
  });

  it('says so when the current password is wrong, and changes nothing', async () => {
    const server = setup({
      [`GET ${api.reauthenticate}`]: { data: { authentication: 'authenticationFailure' } },
    });
    renderApp('/vendor/profile');
    await fillAndSubmit('wrong');
    expect(await screen.findByText(profileMessages.incorrect)).toBeTruthy();
    expect(server.requests.some((r) => r.key === `POST ${api.changePassword}`)).toBe(false);
  });

  it('shows the unexpected-error message when the change fails', async () => {
    setup({
      [`GET ${api.reauthenticate}`]: { data: { authentication: 'success' } },
      [`POST ${api.changePassword}`]: { status: 500, data: { errors: ['boom'] } },
    });
    renderApp('/vendor/profile');
    await fillAndSubmit('Old-Password-1');
    expect(await screen.findByText(profileMessages.unexpected)).toBeTruthy();
  });

  it('requires the current password', async () => {
    setup({});
    const user = userEvent.setup();
    renderApp('/vendor/profile');
    await user.click(await screen.findByLabelText('Current Password'));
    await user.tab();
    // The spec's word for an empty required field, tied to the field.
    const field = screen.getByLabelText('Current Password');
    expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Required',
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Submit' }).disabled).toBe(true);
  });

  it('sends a BRM to /welcome', async () => {
    installFakeServer(bootReplies(signedIn(), makeUser({ type: 'employee', isEmployeeBrm: true })));
    const { history } = renderApp('/vendor/profile');
    await waitFor(() => expect(history.location.pathname).toBe('/welcome'));
  });
});
