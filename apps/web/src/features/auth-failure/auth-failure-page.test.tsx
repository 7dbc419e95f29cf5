import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anonymous, bootReplies, installFakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

describe('Authentication Failure', { timeout: 20_000 }, () => {
  it('says why when the IdP did not use the multi-factor authentication the portal requires', async () => {
    installFakeServer(bootReplies(anonymous));
    renderApp('/auth-failure?reason=authn-context');
    expect(await screen.findByRole('heading', { name: 'Authentication Failure' })).toBeTruthy();
    expect(screen.getByTestId('auth-failure-reason').textContent).toContain(
      'without the multi-factor authentication this portal requires',
    );
  });

  it('shows only the spec’s text without a reason, or with one it does not know', async () => {
    installFakeServer(bootReplies(anonymous));
    renderApp('/auth-failure?reason=<script>');
    expect(await screen.findByRole('heading', { name: 'Authentication Failure' })).toBeTruthy();
    expect(screen.queryByTestId('auth-failure-reason')).toBeNull();
    expect(
      screen.getByText(
        'Your login attempt was unsuccessful. Please contact a system administrator if necessary.',
      ),
    ).toBeTruthy();
  });
});
