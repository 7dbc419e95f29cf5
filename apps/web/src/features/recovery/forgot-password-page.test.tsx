import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { api, recoveryMessages, type IdentifyResponse } from '@pra/contracts';
import { anonymous, bootReplies, installFakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const account = { username: 'jdoe', givenName: 'Jane', familyName: 'Doe', email: 'jane@x.example' };
const identified = (device?: IdentifyResponse['device']): IdentifyResponse => ({
  isAccountValid: true,
  isDeviceValid: device !== undefined,
  ...(device ? { device } : {}),
  account,
});

async function identify(device?: IdentifyResponse['device'], extra: Partial<IdentifyResponse> = {}) {
  installFakeServer({
    ...bootReplies(anonymous),
    [`POST ${api.forgotIdentify}`]: { data: { ...identified(device), ...extra } },
  });
  const view = renderApp('/forgot-password');
  await userEvent.type(await screen.findByLabelText('Username'), 'JDoe');
  await userEvent.type(screen.getByLabelText('Email'), 'Jane@x.example');
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByRole('heading', { name: 'Select a verification method' });
  return view;
}

describe('Forgot Password page', () => {
  it('asks before leaving the wizard once the person is identified, and stays when the answer is no', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      const { history } = await identify();
      act(() => history.push('/home'));
      expect(confirm).toHaveBeenCalledTimes(1);
      expect(history.location.pathname).toBe('/forgot-password');
      expect(screen.getByRole('heading', { name: 'Select a verification method' })).toBeTruthy();
      confirm.mockReturnValue(true);
      act(() => history.push('/home'));
      expect(history.location.pathname).toBe('/home');
    } finally {
      confirm.mockRestore();
    }
  });

  it('offers Send Push only when a paired phone can receive it', async () => {
    await identify({ nickname: 'Authenticator app', canPush: false });
    expect(screen.getByLabelText('6-digit passcode from your authenticator')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send Push' })).toBeNull();
  });

  it('offers Send Push beside the passcode with a paired phone', async () => {
    await identify({ nickname: 'Phone', canPush: true });
    expect(screen.getByRole('button', { name: 'Send Push' })).toBeTruthy();
  });

  it('hides passcode and push for an account that must use a key (GOVERNANCE.md §7.3): the key alone', async () => {
    await identify({ nickname: 'Phone', canPush: true }, { hasSecurityKey: true, keyRequired: true });
    expect(screen.getByRole('button', { name: 'Verify with Security Key' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send Push' })).toBeNull();
    expect(screen.queryByLabelText('6-digit passcode from your authenticator')).toBeNull();
  });

  it('tells an account that must use a key and has none to ask its sponsor, with nothing to verify by', async () => {
    await identify({ nickname: 'Phone', canPush: true }, { hasSecurityKey: false, keyRequired: true });
    expect(screen.getByText(recoveryMessages.keyRequiredNoKey)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send Push' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send Password Reset Email' })).toBeNull();
  });

  it('counts the steps a person sees, and Back keeps what was typed', async () => {
    await identify();
    expect(screen.getByText('Step 2 of 4')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('heading', { name: 'Identify Yourself' });
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Username').value).toBe('JDoe');
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('Jane@x.example');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', false);
  });

  it('says on the page why a used reset link does not work', async () => {
    installFakeServer({
      ...bootReplies(anonymous),
      [`POST ${api.forgotIdentifyByCode}`]: {
        data: { isAccountValid: true, isCodeValid: false, invalidReason: recoveryMessages.codeUsed },
      },
    });
    renderApp('/forgot-password?code=ABCD-EFGH-JKMN-PQRS');
    const main = await screen.findByRole('main');
    await within(main).findByRole('heading', { name: 'Identify Yourself' });
    expect(within(main).getByText('Invalid reset code. The code has already been used.')).toBeTruthy();
    expect(within(main).getByText('Step 1 of 4')).toBeTruthy();
  });
});
