import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { api, registrationMessages, textFieldMessages } from '@pra/contracts';
import {
  anonymous,
  bootReplies,
  installFakeServer,
  makeUser,
  signedIn,
  type FakeReply,
} from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const orgsKey = (domain: string) => `GET ${api.orgsByDomain}?domain=${domain}`;
const inUseKey = `POST ${api.emailInUse}`;
const submitKey = `POST ${api.registrationSubmit}`;
const brm = makeUser({ type: 'employee', isEmployeeBrm: true, orgs: ['Acme Imaging', 'Initech'] });

function setup(extra: Record<string, FakeReply> = {}, auth = anonymous, user?: ReturnType<typeof makeUser>) {
  return installFakeServer({
    ...bootReplies(auth, user),
    [orgsKey('acme.example')]: { data: ['Acme Imaging', 'Acme Labs'] },
    [inUseKey]: { data: 'available' },
    [submitKey]: { data: { requestID: 'r1', success: true } },
    [`GET ${api.registrationAvailability}`]: { data: { available: true } },
    ...extra,
  });
}

async function fillForm(email = 'jane@acme.example') {
  await userEvent.type(await screen.findByLabelText('First Name'), 'Jane');
  await userEvent.type(screen.getByLabelText('Last Name'), 'Doe');
  await userEvent.type(screen.getByLabelText('Email'), email);
}

const registerButton = () => screen.getByRole('button', { name: 'Register' });
const orgSelect = () => screen.getByLabelText<HTMLSelectElement>('Organization');

describe('New User Registration', () => {
  it('asks before leaving a half-filled form, and stays when the answer is no', async () => {
    setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      const { history } = renderApp('/new-user');
      await userEvent.type(await screen.findByLabelText('First Name'), 'Jane');
      act(() => history.push('/home'));
      expect(confirm).toHaveBeenCalledTimes(1);
      expect(history.location.pathname).toBe('/new-user');
      expect(screen.getByLabelText<HTMLInputElement>('First Name').value).toBe('Jane');
      confirm.mockReturnValue(true);
      act(() => history.push('/home'));
      expect(history.location.pathname).toBe('/home');
    } finally {
      confirm.mockRestore();
    }
  });

  it('lets a visitor register after choosing an organization and agreeing to the policy', async () => {
    const server = setup();
    const { history } = renderApp('/new-user');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('New User Registration');
    await fillForm();
    await waitFor(() => expect(orgSelect().disabled).toBe(false), { timeout: 3000 });
    expect([...orgSelect().options].map((o) => o.value)).toEqual(['', 'Acme Imaging', 'Acme Labs']);
    await userEvent.selectOptions(orgSelect(), 'Acme Labs');
    expect(registerButton()).toHaveProperty('disabled', true);

    await userEvent.click(screen.getByRole('button', { name: 'Read the Acceptable Use Policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acceptable Use Policy' });
    // Its scrolling text is reachable by keyboard (axe: scrollable-region-focusable).
    expect(within(dialog).getByRole('region', { name: 'Acceptable Use Policy text' }).tabIndex).toBe(0);
    await userEvent.click(dialog.querySelector('.modal-footer button')!);
    await userEvent.click(screen.getByLabelText('I agree to the Acceptable Use Policy'));
    await waitFor(() => expect(registerButton()).toHaveProperty('disabled', false));
    await userEvent.click(registerButton());

    expect(await screen.findByRole('heading', { level: 1, name: 'Registration Successful' })).toBeTruthy();
    expect(server.requests.find((r) => r.key === submitKey)?.data).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@acme.example',
      org: 'Acme Labs',
    });
    await userEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(history.location.pathname).toBe('/home');
  }, 15_000);

  it("shows 'Required' and 'Invalid email' and keeps Register disabled", async () => {
    setup();
    renderApp('/new-user');
    await userEvent.click(await screen.findByLabelText('First Name'));
    await userEvent.tab();
    expect(await screen.findByText('Required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.tab();
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(registerButton()).toHaveProperty('disabled', true);
  });

  it('refuses an over-long pasted name and invisible characters with a message, never cutting them', async () => {
    setup();
    renderApp('/new-user');
    const first = await screen.findByLabelText<HTMLInputElement>('First Name');
    await userEvent.click(first);
    await userEvent.paste('J'.repeat(300));
    await userEvent.tab();
    expect(first.value).toHaveLength(300);
    expect(await screen.findByText('Max 255 characters')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('Last Name'));
    await userEvent.paste('Doe\u202Egpj.exe');
    await userEvent.tab();
    expect(await screen.findByText(textFieldMessages.invalidCharacters)).toBeTruthy();
    expect(screen.getByLabelText('Last Name').getAttribute('aria-invalid')).toBe('true');
    expect(registerButton()).toHaveProperty('disabled', true);
  });

  it("marks an email domain without organizations 'Unrecognized email domain'", async () => {
    setup({ [orgsKey('nowhere.example')]: { data: [] } });
    renderApp('/new-user');
    await fillForm('joe@nowhere.example');
    expect(
      await screen.findByText(registrationMessages.unrecognizedDomain, undefined, { timeout: 3000 }),
    ).toBeTruthy();
    expect(orgSelect().disabled).toBe(true);
  });

  it('warns about an email in use and offers to log in with that account', async () => {
    setup({ [inUseKey]: { data: 'activeAccount' } });
    renderApp('/new-user');
    await fillForm();
    expect(
      await screen.findByText(registrationMessages.emailInUse, undefined, { timeout: 3000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Login with Existing Account' }).getAttribute('href')).toBe(
      '/api/saml/login/standard?next=%2Fwelcome',
    );
    await userEvent.click(screen.getByLabelText('I agree to the Acceptable Use Policy'));
    await userEvent.selectOptions(orgSelect(), 'Acme Labs');
    expect(registerButton()).toHaveProperty('disabled', true);
  });

  it('warns about a registration already pending', async () => {
    setup({ [inUseKey]: { data: 'pendingApproval' } });
    renderApp('/new-user');
    await fillForm();
    expect(await screen.findByText(registrationMessages.pending, undefined, { timeout: 3000 })).toBeTruthy();
  });

  it('shows the server refusal in a danger alert', async () => {
    setup({ [submitKey]: { status: 409, data: { errors: [registrationMessages.pending] } } });
    renderApp('/new-user');
    await fillForm();
    await waitFor(() => expect(orgSelect().disabled).toBe(false), { timeout: 3000 });
    await userEvent.selectOptions(orgSelect(), 'Acme Imaging');
    await userEvent.click(screen.getByLabelText('I agree to the Acceptable Use Policy'));
    await userEvent.click(registerButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(registrationMessages.pending);
  });

  it('after the email changes, submits only the organization the select shows', async () => {
    const server = setup();
    renderApp('/new-user');
    await fillForm();
    await waitFor(() => expect(orgSelect().disabled).toBe(false), { timeout: 3000 });
    await userEvent.selectOptions(orgSelect(), 'Acme Labs');
    await userEvent.click(screen.getByLabelText('I agree to the Acceptable Use Policy'));
    await waitFor(() => expect(registerButton()).toHaveProperty('disabled', false));

    // Another address at the same domain: the organization list reloads and shows no choice.
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'john@acme.example');
    await waitFor(() => expect(orgSelect().disabled).toBe(false), { timeout: 3000 });
    await waitFor(() => expect(orgSelect().options).toHaveLength(3));
    expect(orgSelect().value).toBe('');
    expect(orgSelect().selectedOptions[0]?.textContent).toBe('Select an organization');
    expect(registerButton()).toHaveProperty('disabled', true);
    await userEvent.click(registerButton());
    expect(server.requests.some((r) => r.key === submitKey)).toBe(false);

    await userEvent.selectOptions(orgSelect(), 'Acme Imaging');
    await waitFor(() => expect(registerButton()).toHaveProperty('disabled', false));
    await userEvent.click(registerButton());
    await screen.findByRole('heading', { level: 1, name: 'Registration Successful' });
    expect(server.requests.find((r) => r.key === submitKey)?.data).toMatchObject({
      email: 'john@acme.example',
      org: 'Acme Imaging',
    });
  });

  it('lets a BRM register on behalf without the policy, only for its own organizations', async () => {
    setup({ [inUseKey]: { data: 'available' } }, signedIn(), brm);
    const { history } = renderApp('/new-user');
    await fillForm();
    // One own organization owns the domain: it is chosen already.
    await waitFor(() => expect(orgSelect().value).toBe('Acme Imaging'), { timeout: 3000 });
    expect([...orgSelect().options].map((o) => o.value)).toEqual(['', 'Acme Imaging']);
    expect(screen.queryByLabelText('I agree to the Acceptable Use Policy')).toBeNull();
    await waitFor(() => expect(registerButton()).toHaveProperty('disabled', false));
    await userEvent.click(registerButton());
    await userEvent.click(await screen.findByRole('link', { name: 'Home' }));
    // /welcome is a lazy route: the navigation completes once its chunk has loaded.
    await waitFor(() => expect(history.location.pathname).toBe('/welcome'));
  });

  it("tells a BRM when none of its organizations owns the email's domain", async () => {
    setup({ [orgsKey('globex.example')]: { data: ['Globex'] } }, signedIn(), brm);
    renderApp('/new-user');
    await fillForm('joe@globex.example');
    expect(
      await screen.findByText(registrationMessages.noOrganizations('globex.example'), undefined, {
        timeout: 3000,
      }),
    ).toBeTruthy();
    expect(orgSelect().getAttribute('aria-invalid')).toBe('true');
    expect(registerButton()).toHaveProperty('disabled', true);
  });

  it("tells a BRM 'This email is already in use on an active account'", async () => {
    setup({ [inUseKey]: { data: 'activeAccount' } }, signedIn(), brm);
    renderApp('/new-user');
    await fillForm();
    expect(
      await screen.findByText(registrationMessages.emailInUseAdmin, undefined, { timeout: 3000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Login with Existing Account' })).toBeNull();
  });

  it('says before anyone fills it in that registration is closed during maintenance', async () => {
    setup({ [`GET ${api.registrationAvailability}`]: { data: { available: false } } });
    renderApp('/new-user');
    expect(await screen.findByText(registrationMessages.maintenance)).toBeTruthy();
    expect(registerButton()).toHaveProperty('disabled', true);
  });
});
