import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api, factorMessages } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn, type FakeReply } from '../../test/fake-server';
import { makePasswordRequirements } from '../../test/password-policy';
import { renderApp } from '../../test/render-app';

const OLD_PHONE = { id: '6f1c2f6e-0d5a-4f57-9d8e-2b7c1a3e4f50', nickname: 'Old phone' };

function setup(replies: Record<string, FakeReply>) {
  return installFakeServer({
    ...bootReplies(signedIn(), makeUser({ username: 'alovelace' })),
    [`GET ${api.passwordRequirements}?username=alovelace`]: { data: makePasswordRequirements(['alovelace']) },
    [`GET ${api.authenticators}`]: {
      data: {
        needsPasscode: true,
        authenticators: [{ ...OLD_PHONE, pairedAt: '2026-01-05T10:00:00.000Z', isRecent: false }],
      },
    },
    ...replies,
  });
}

async function fillOwner(scope: HTMLElement) {
  const user = userEvent.setup();
  await user.type(within(scope).getByLabelText('Your password'), 'My-Password-1');
  await user.type(within(scope).getByLabelText('Passcode from your authenticator app'), '123456');
  return user;
}

/** Manage Profile with a confirmation and a removal that succeed, the Old phone's Remove form open. */
async function openRemoveForm() {
  const server = setup({
    [`POST ${api.authenticatorConfirm}`]: { data: { result: 'success' } },
    [`POST ${api.authenticatorRemove}`]: { data: { success: true } },
  });
  renderApp('/vendor/profile');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Remove Old phone' }));
  return { server, user, form: screen.getByRole('form', { name: 'Remove Old phone' }) };
}

describe('pairing and removing phones', { timeout: 20_000 }, () => {
  it('pairs one more phone only after the password and passcode confirm the owner', async () => {
    const server = setup({
      [`POST ${api.authenticatorConfirm}`]: { data: { result: 'success' } },
      [`POST ${api.authenticatorPair}`]: {
        data: { pairingUrl: 'http://localhost/authenticator#key=k', qrDataUrl: 'data:image/png;base64,AA==' },
      },
    });
    renderApp('/vendor/profile');
    const form = await screen.findByRole('form', { name: 'Pair a phone' });
    expect(await screen.findByRole('button', { name: 'Remove Old phone' })).toBeTruthy();
    const pair = within(form).getByRole<HTMLButtonElement>('button', { name: 'Pair Phone' });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Phone nickname'), 'New phone');
    expect(pair.disabled).toBe(true);
    await fillOwner(form);
    await waitFor(() => expect(pair.disabled).toBe(false));
    await user.click(pair);
    expect(await screen.findByRole('img', { name: /QR code that pairs your phone/ })).toBeTruthy();
    const calls = server.requests
      .filter((r) => r.key.startsWith('POST /api/user/authenticator/'))
      .map(({ key, data }) => ({ key, data }));
    expect(calls).toEqual([
      { key: `POST ${api.authenticatorConfirm}`, data: { password: 'My-Password-1', passcode: '123456' } },
      { key: `POST ${api.authenticatorPair}`, data: { nickname: 'New phone' } },
    ]);
  });

  it('shows a wrong passcode in the form and pairs nothing', async () => {
    const server = setup({ [`POST ${api.authenticatorConfirm}`]: { data: { result: 'invalidCode' } } });
    renderApp('/vendor/profile');
    const form = await screen.findByRole('form', { name: 'Pair a phone' });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Phone nickname'), 'New phone');
    await fillOwner(form);
    await user.click(within(form).getByRole('button', { name: 'Pair Phone' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(factorMessages.passcodeInvalid);
    expect(server.requests.some((r) => r.key === `POST ${api.authenticatorPair}`)).toBe(false);
  });

  it('removes a phone through a confirmation of its own', async () => {
    const { server, user, form } = await openRemoveForm();
    const remove = within(form).getByRole<HTMLButtonElement>('button', { name: 'Remove Phone' });
    expect(remove.disabled).toBe(true);
    await fillOwner(form);
    await waitFor(() => expect(remove.disabled).toBe(false));
    await user.click(remove);
    expect(await screen.findByText(factorMessages.removed)).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.authenticatorRemove}`)?.data).toEqual({
      id: OLD_PHONE.id,
    });
  });

  it('confirms by a push approved on a paired phone instead of the passcode', async () => {
    const { server, user, form } = await openRemoveForm();
    await user.type(within(form).getByLabelText('Your password'), 'My-Password-1');
    await user.click(within(form).getByLabelText('By approving a request on a paired phone'));
    expect(within(form).queryByLabelText('Passcode from your authenticator app')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Remove Phone' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.key === `POST ${api.authenticatorRemove}`)).toBe(true),
    );
    expect(server.requests.find((r) => r.key === `POST ${api.authenticatorConfirm}`)?.data).toEqual({
      password: 'My-Password-1',
      push: true,
    });
  });
});
