import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, reviewsApi } from '@pra/contracts';
import { anonymous, bootReplies, installFakeServer, makeUser, signedIn } from '../test/fake-server';
import { renderApp } from '../test/render-app';
import { seedBootData } from './boot-data';
import { navigateAway } from '../lib/full-navigation';
import { createQueryClient } from '../lib/query-client';
import { BRM_NOTICE } from './guards/access-rules';
import { logInHref } from './layout/top-nav';

vi.mock('../lib/full-navigation', () => ({ navigateAway: vi.fn() }));

const brm = makeUser({ type: 'employee', isEmployeeBrm: true, givenName: 'Bo', familyName: 'Rm' });
const countKey = `GET ${api.pendingApprovals}?getCountOnly=true`;
const reviewsKey = `GET ${reviewsApi.brm}?countOnly=true`;
const reviewsCount = { [reviewsKey]: { data: { undecided: 3, campaigns: [], items: [], totalItems: 0 } } };

afterEach(() => vi.mocked(navigateAway).mockClear());

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

describe('the app shell', () => {
  it('shows the landing page with exactly its six links', async () => {
    installFakeServer(bootReplies(anonymous));
    renderApp('/home');
    const main = await screen.findByRole('main');
    const names = within(main)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual([
      'Login',
      'Register New User',
      'Activate Account',
      'Forgot User ID',
      'Forgot Password',
      'Contact Us',
    ]);
    expect(within(main).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(
      '/api/saml/login/standard?next=%2Fwelcome',
    );
    await waitFor(() => expect(document.title).toBe('Home · PRA Portal'));
  });

  it("sends the nav's Log In to /home when there is no current-user record with a login URL", async () => {
    installFakeServer(bootReplies(anonymous));
    renderApp('/new-user');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/home');
  });

  it("builds Log In from the record's login URL with next=/welcome", () => {
    expect(logInHref(makeUser({ loginUrl: '/api/saml/login/standard' }))).toBe(
      '/api/saml/login/standard?next=%2Fwelcome',
    );
    expect(logInHref(makeUser({ loginUrl: 'https://sso.example/start?app=pra' }))).toBe(
      'https://sso.example/start?app=pra&next=%2Fwelcome',
    );
    expect(logInHref(makeUser({ loginUrl: '' }))).toBe('/home');
    expect(logInHref(undefined)).toBe('/home');
  });

  it('redirects / to /home when anonymous and to /welcome when signed in', async () => {
    installFakeServer(bootReplies(anonymous));
    const first = renderApp('/');
    await waitFor(() => expect(first.history.location.pathname).toBe('/home'));
    first.unmount();

    installFakeServer(bootReplies(signedIn(), makeUser()));
    const second = renderApp('/');
    await waitFor(() => expect(second.history.location.pathname).toBe('/welcome'));
  });

  it('moves focus to the page after a move to another page, but not on arrival nor for a new query', async () => {
    installFakeServer(bootReplies(anonymous));
    const { history } = renderApp('/new-user');
    await screen.findByRole('heading', { level: 1 });
    expect(document.activeElement).toBe(document.body);
    const brand = within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link')[0]!;
    brand.focus();
    act(() => history.push('/new-user?from=nav'));
    await waitFor(() => expect(history.location.search).toBe('?from=nav'));
    expect(document.activeElement).toBe(brand);
    await userEvent.click(brand);
    await waitFor(() => expect(history.location.pathname).toBe('/home'));
    // The landing page's own main region (it is drawn outside the shared layout).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
    expect(screen.getByRole('main').textContent).toContain('Register New User');
  });

  it('sends anonymous visitors of a signed-in page to the SAML login with a full navigation', async () => {
    installFakeServer(bootReplies(anonymous));
    renderApp('/brm/manage-users?x=1');
    await waitFor(() =>
      expect(navigateAway).toHaveBeenCalledWith(
        '/api/saml/login/standard?next=%2Fbrm%2Fmanage-users%3Fx%3D1',
      ),
    );
  });

  it('shows the BRM notice to a vendor on a BRM route', async () => {
    installFakeServer(bootReplies(signedIn(), makeUser()));
    renderApp('/brm/pending-approvals');
    expect(await screen.findByText(BRM_NOTICE)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Approvals and Provisioning');
  });

  it('sends employees away from vendor routes to welcome', async () => {
    installFakeServer({
      ...bootReplies(signedIn(), brm),
      [countKey]: { data: { count: 0 } },
      ...reviewsCount,
    });
    const { history } = renderApp('/vendor/profile');
    await waitFor(() => expect(history.location.pathname).toBe('/welcome'));
  });

  it("shows a BRM's welcome cards with the approvals count", async () => {
    installFakeServer({
      ...bootReplies(signedIn(), brm),
      [countKey]: { data: { count: 4 } },
      ...reviewsCount,
    });
    renderApp('/welcome');
    // The heading says 'Welcome' until the user record is in, then names the person.
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome Bo Rm'));
    const cards = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(cards).toEqual([
      'Approvals',
      'Access Reviews',
      'Users',
      'Terminate Vendors',
      'New User',
      'Away and Backup',
      'User Guides',
    ]);
    expect((await screen.findByText('4')).className).toContain('bg-danger');
    expect(
      screen.getByText('Manage your profile, request additional access or access applications'),
    ).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Welcome · PRA Portal'));
  });

  it("draws /welcome from the page's boot data, without asking for the current user", async () => {
    const server = installFakeServer({ [countKey]: { data: { count: 2 } }, ...reviewsCount });
    const client = createQueryClient();
    const page = document.implementation.createHTMLDocument('page');
    const boot = {
      csrfToken: 'csrf-boot',
      authStatus: signedIn(),
      systemMessage: { enabled: false, loggedInOnly: false, severity: 'info', title: '', text: '' },
      currentUser: brm,
    };
    page.head.innerHTML = `<meta name="pra-boot" content="${escapeAttribute(JSON.stringify(boot))}">`;
    expect(seedBootData(client, page)).toBe(true);
    renderApp('/welcome', client);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Welcome Bo Rm');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Approvals',
      'Access Reviews',
      'Users',
      'Terminate Vendors',
      'New User',
      'Away and Backup',
      'User Guides',
    ]);
    expect(await screen.findByText('2')).toBeTruthy();
    expect(server.requests.map((r) => r.key).sort()).toEqual([countKey, reviewsKey].sort());
  });

  it('shows an approvals count of 0 in grey, not alarm red', async () => {
    installFakeServer({
      ...bootReplies(signedIn(), brm),
      [countKey]: { data: { count: 0 } },
      ...reviewsCount,
    });
    renderApp('/welcome');
    const badge = await screen.findByText('0');
    expect(badge.textContent).toBe('0 pending');
    expect(badge.className).toContain('bg-secondary');
    expect(badge.className).not.toContain('bg-danger');
  });

  it('shows the IIQ banner and disables account management while IIQ is down', async () => {
    installFakeServer(bootReplies(signedIn(), { ...brm, iiqAvailable: false }));
    renderApp('/welcome');
    expect(await screen.findByText('IIQ is currently unavailable')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Approvals' })).toBeNull();
    expect(screen.getAllByText('Currently unavailable')).toHaveLength(4);
  });

  it('shows the error page for unknown routes', async () => {
    installFakeServer(bootReplies(anonymous));
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Oops! Something Went Wrong' })).toBeTruthy();
    expect(screen.getByText('404 Not Found')).toBeTruthy();
  });

  it('shows the generic error when the boot calls fail', async () => {
    installFakeServer({ ...bootReplies(anonymous), [`GET ${api.csrf}`]: { status: 500, data: {} } });
    renderApp('/home');
    expect(await screen.findByText('An unknown error occurred')).toBeTruthy();
  });

  it('offers Login Again, not a failing Extend Session, once the server has ended a session with extensions left', async () => {
    const server = installFakeServer(bootReplies(signedIn(2, 2), makeUser()));
    renderApp('/welcome?tab=1');
    // The server ends the session at its expiry, as the real one does: it then answers anonymous.
    await waitFor(() =>
      expect(server.requests.some((r) => r.key === `GET ${api.isAuthenticated}`)).toBe(true),
    );
    server.replies.set(`GET ${api.isAuthenticated}`, { data: anonymous });
    const dialog = await screen.findByRole('dialog', undefined, { timeout: 6000 });
    expect(within(dialog).getByText('Session Timeout')).toBeTruthy();
    const login = await within(dialog).findByRole('button', { name: 'Login Again' });
    await waitFor(() =>
      expect(server.requests.filter((r) => r.key === `GET ${api.isAuthenticated}`)).toHaveLength(2),
    );
    expect(within(dialog).queryByRole('button', { name: 'Extend Session' })).toBeNull();
    await userEvent.click(login);
    expect(navigateAway).toHaveBeenCalledWith('/api/saml/login/standard?next=%2Fwelcome%3Ftab%3D1');
  }, 10_000);

  it('also offers Extend Session when the browser clock ran ahead and the server still holds the session', async () => {
    const server = installFakeServer({
      ...bootReplies(signedIn(-5, 2), makeUser()),
      [`POST ${api.extendSession}`]: { data: { success: true } },
    });
    renderApp('/welcome');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Login Again' })).toBeTruthy();
    const extend = await within(dialog).findByRole('button', { name: 'Extend Session' });
    server.replies.set(`GET ${api.isAuthenticated}`, { data: signedIn() });
    await userEvent.click(extend);
    expect(await screen.findByText('Session extended')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers Login Again when no extensions remain', async () => {
    installFakeServer(bootReplies(signedIn(-5, 0), makeUser()));
    renderApp('/welcome');
    await userEvent.click(await screen.findByRole('button', { name: 'Login Again' }));
    expect(navigateAway).toHaveBeenCalledWith('/api/saml/login/standard?next=%2Fwelcome');
  });

  it('warns with a mm:ss countdown under three minutes and offers Extend Session', async () => {
    installFakeServer(bootReplies(signedIn(120), makeUser()));
    renderApp('/welcome');
    const countdown = await screen.findByText(/^0[0-2]:\d\d$/);
    const banner = countdown.closest<HTMLElement>('.alert')!;
    expect(banner.textContent).toMatch(/^Your session will expire in 0[0-2]:\d\d\./);
    expect(within(banner).getByRole('button', { name: 'Extend Session' })).toHaveProperty('disabled', false);
    expect(within(banner).getByRole('button', { name: 'Logout Now' })).toBeTruthy();
  });

  it('announces the warning once instead of every tick of the countdown', async () => {
    installFakeServer(bootReplies(signedIn(120), makeUser()));
    renderApp('/welcome');
    const countdown = await screen.findByText(/^0[0-2]:\d\d$/);
    // The ticking text is in no live region; one status says it once.
    expect(countdown.closest('[aria-live]')?.getAttribute('aria-live')).toBe('off');
    expect(countdown.closest('[role="status"], [role="alert"]')).toBeNull();
    const announcement = screen.getByText('Your session will expire in less than 3 minutes.');
    expect(announcement.getAttribute('role')).toBe('status');
    const first = countdown.textContent;
    await waitFor(() => expect(countdown.textContent).not.toBe(first), { timeout: 2500 });
    expect(announcement.textContent).toBe('Your session will expire in less than 3 minutes.');
  });

  it('sends one extension however often Extend Session is clicked while the call runs', async () => {
    let release = () => {};
    const until = new Promise<void>((resolve) => (release = resolve));
    const extendKey = `POST ${api.extendSession}`;
    const server = installFakeServer({
      ...bootReplies(signedIn(120), makeUser()),
      [extendKey]: { data: { success: true }, until },
    });
    renderApp('/welcome');
    const extend = await screen.findByRole('button', { name: 'Extend Session' });
    server.replies.set(`GET ${api.isAuthenticated}`, { data: signedIn() });
    await userEvent.click(extend);
    await waitFor(() => expect(extend).toHaveProperty('disabled', true));
    await userEvent.click(extend);
    release();
    expect(await screen.findByText('Session extended')).toBeTruthy();
    expect(server.requests.filter((r) => r.key === extendKey)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Extend Session' })).toBeNull());
  });
});
