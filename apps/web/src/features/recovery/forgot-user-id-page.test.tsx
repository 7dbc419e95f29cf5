import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api } from '@pra/contracts';
import { anonymous, bootReplies, installFakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const user = { username: 'jdoe', givenName: 'Jane', familyName: 'Doe', email: 'jane@x.example' };

describe('Forgot User ID', () => {
  it('shows the Found User view with Cancel (back to the search) and Done', async () => {
    installFakeServer({
      ...bootReplies(anonymous),
      [`POST ${api.forgotUserIdSearch}`]: { data: { isValid: true, user } },
    });
    renderApp('/forgot-user-id');
    await userEvent.type(await screen.findByLabelText('First Name'), 'Jane');
    await userEvent.type(screen.getByLabelText('Last Name'), 'Doe');
    await userEvent.type(screen.getByLabelText('Email'), 'jane@x.example');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Found User' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Done' }).getAttribute('href')).toBe('/home');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('heading', { name: 'Found User' })).toBeNull();
    expect(screen.getByLabelText('First Name')).toBeTruthy();
  });
});
