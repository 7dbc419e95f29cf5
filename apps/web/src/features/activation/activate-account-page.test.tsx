import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { activationMessages, api, type AccountSummary } from '@pra/contracts';
import { anonymous, bootReplies, installFakeServer, type FakeReply } from '../../test/fake-server';
import { GOOD_PASSWORD, makePasswordRequirements } from '../../test/password-policy';
import { renderApp } from '../../test/render-app';

const account: AccountSummary = {
  username: 'jdoe',
  givenName: 'Jane',
  familyName: 'Doe',
  email: 'jane@acme.example',
};
const decodeKey = `POST ${api.activationDecode}`;
const activateKey = `POST ${api.activate}`;
const valid: FakeReply = { data: { isValid: true, account } };
const expired: FakeReply = { data: { isValid: false, invalidReason: activationMessages.expiredCode } };

function setup(decode: FakeReply = valid, activate: FakeReply = { data: { success: true } }) {
  return installFakeServer({
    ...bootReplies(anonymous),
    [decodeKey]: decode,
    [activateKey]: activate,
    [`GET ${api.passwordRequirements}?username=jdoe`]: { data: makePasswordRequirements(['jdoe']) },
  });
}

const next = () => userEvent.click(screen.getByRole('button', { name: 'Next' }));
const stepHeading = () => screen.getByRole('heading', { level: 2 }).textContent;

async function setPassword() {
  await userEvent.type(await screen.findByLabelText('New Password'), GOOD_PASSWORD);
  await userEvent.type(screen.getByLabelText('Confirm Password'), GOOD_PASSWORD);
}

describe('Account Activation wizard', () => {
  it('walks through all six steps from the intro', async () => {
    const server = setup(expired);
    renderApp('/activate-account');
    expect(await screen.findByText('Step 1 of 6')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Account Activation');
    expect(stepHeading()).toBe("Let's activate your account");
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/home');

    await next();
    expect(stepHeading()).toBe('Acceptable Use Policy');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByLabelText('I have read and accept the Acceptable Use Policy'));
    await next();

    expect(screen.getByText('Step 3 of 6')).toBeTruthy();
    const code = screen.getByLabelText('Activation Code');
    expect(code.getAttribute('name')).toBe('claimCode');
    expect(code.getAttribute('placeholder')).toBe('enter code');
    await userEvent.type(code, 'OLD-CODE');
    await userEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(await screen.findByText(activationMessages.expiredCode)).toBeTruthy();
    expect(code.className).toContain('is-invalid');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);

    server.replies.set(decodeKey, valid);
    await userEvent.clear(code);
    await userEvent.type(code, 'GOOD-CODE{Enter}');
    expect(await screen.findByText('Activation code accepted.')).toBeTruthy();
    expect(code.className).toContain('is-valid');
    await next();

    expect(stepHeading()).toBe('Confirm Your Details');
    expect(screen.getByLabelText<HTMLInputElement>('Username').value).toBe('jdoe');
    expect(screen.getByLabelText<HTMLInputElement>('Email').readOnly).toBe(true);
    await next();

    expect(stepHeading()).toBe('Set Initial Password');
    const activate = screen.getByRole('button', { name: 'Activate Account' });
    expect(activate).toHaveProperty('disabled', true);
    await setPassword();
    await waitFor(() => expect(activate).toHaveProperty('disabled', false));
    await userEvent.click(activate);

    expect(await screen.findByText(activationMessages.activated)).toBeTruthy();
    expect(stepHeading()).toBe('Congratulations!');
    expect(screen.getByText(/prompted to configure multi-factor authentication/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(
      '/api/saml/login/standard?next=%2Fwelcome',
    );
    expect(server.requests.find((r) => r.key === activateKey)?.data).toEqual({
      claimCode: 'GOOD-CODE',
      newPassword: GOOD_PASSWORD,
    });
  }, 20_000);

  it('starts at the details step with a valid code in the link, and Previous goes back one step', async () => {
    const server = setup();
    renderApp('/activate-account?code=GOOD-CODE');
    expect(await screen.findByText('Step 4 of 6')).toBeTruthy();
    expect(stepHeading()).toBe('Confirm Your Details');
    expect(server.requests.find((r) => r.key === decodeKey)?.data).toEqual({ claimCode: 'GOOD-CODE' });
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(stepHeading()).toBe('Enter Activation Code');
    expect(screen.getByLabelText<HTMLInputElement>('Activation Code').value).toBe('GOOD-CODE');
  });

  it('starts at the code step, with the feedback, for an invalid code in the link', async () => {
    setup(expired);
    renderApp('/activate-account?code=OLD-CODE');
    expect(await screen.findByText('Step 3 of 6')).toBeTruthy();
    const code = screen.getByLabelText<HTMLInputElement>('Activation Code');
    expect(code.value).toBe('OLD-CODE');
    expect(code.className).toContain('is-invalid');
    expect(screen.getByText(activationMessages.expiredCode)).toBeTruthy();
  });

  it("alerts 'Failed to process activation code' when the check fails", async () => {
    setup({ status: 500, data: {} });
    renderApp('/activate-account?code=ANY');
    expect(await screen.findByText(activationMessages.failedToProcess)).toBeTruthy();
    expect(screen.getByText('Step 3 of 6')).toBeTruthy();
  });

  it("shows the server's password rule messages, or the generic activation error", async () => {
    const server = setup(valid, { status: 400, data: { errors: ['Min length: 12'] } });
    renderApp('/activate-account?code=GOOD-CODE');
    await screen.findByText('Step 4 of 6');
    await next();
    await setPassword();
    const activate = screen.getByRole('button', { name: 'Activate Account' });
    await waitFor(() => expect(activate).toHaveProperty('disabled', false));
    await userEvent.click(activate);
    expect(await screen.findByText('Min length: 12', { selector: '.toast-body' })).toBeTruthy();

    server.replies.set(activateKey, { status: 500, data: {} });
    await userEvent.click(activate);
    expect(await screen.findByText(activationMessages.unexpected)).toBeTruthy();
    expect(stepHeading()).toBe('Set Initial Password');
  }, 20_000);
});
