import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api, roleName, type CurrentRole } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

// The welcome alert (GOVERNANCE.md §3.2): one line per grant ending within 14 days.

const role = (display: string, endsOn: string, daysLeft: number, extensionPending = false): CurrentRole => ({
  name: roleName(display),
  display,
  endsOn,
  daysLeft,
  expiresAt: `${endsOn}T23:59:59.000Z`,
  sponsor: null,
  extensionPending,
});

describe('the welcome page’s access-ending alert', () => {
  it('lists the grants ending within 14 days, each with its extension link or its pending request', async () => {
    const vendor = makeUser({ username: 'vend', type: 'vendor' });
    installFakeServer({
      ...bootReplies(signedIn(), vendor),
      [`GET ${api.currentAccess}?username=vend`]: {
        data: [
          role('Acme Imaging', '2027-03-14', 13),
          role('Globex Health IT', '2027-06-01', 92),
          role('Initech Devices', '2027-03-02', 1, true),
        ],
      },
    });
    renderApp('/welcome');
    const alert = await screen.findByText(
      /Your access to Acme Imaging ends on 2027-03-14 \(13 days left\)\./,
    );
    const box = alert.closest('.alert') as HTMLElement;
    const lines = within(box)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual([
      'Your access to Acme Imaging ends on 2027-03-14 (13 days left). Request extension',
      'Your access to Initech Devices ends on 2027-03-02 (1 day left). An extension request is pending.',
    ]);
    expect(
      within(box).getByRole('link', { name: 'Request extension for Acme Imaging' }).getAttribute('href'),
    ).toBe(`/vendor/request-access?extend=${encodeURIComponent(roleName('Acme Imaging'))}`);
  });

  it('shows nothing when no grant ends soon', async () => {
    const vendor = makeUser({ username: 'calm', type: 'vendor' });
    const server = installFakeServer({
      ...bootReplies(signedIn(), vendor),
      [`GET ${api.currentAccess}?username=calm`]: { data: [role('Acme Imaging', '2027-06-01', 92)] },
    });
    renderApp('/welcome');
    expect(await screen.findByRole('heading', { name: /Welcome/ })).toBeTruthy();
    // The list was asked for and answered: the alert had its chance to show.
    await waitFor(() =>
      expect(server.requests.some((r) => r.key === `GET ${api.currentAccess}?username=calm`)).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/Your access to/)).toBeNull();
  });
});
