import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManagedUser } from '@pra/contracts';
import { UserDetailsModal } from './dormancy';

const user: ManagedUser = {
  username: 'vkey',
  givenName: 'Vera',
  familyName: 'Key',
  email: 'vkey@example.test',
  active: true,
  status: 'active',
  canManage: true,
  canResetActivationCode: false,
  lastSignInAt: null,
};

describe('View Details', () => {
  // The dialog fades in: its transition's end is a timer (jsdom runs no CSS transitions). These
  // tests are over before it fires, and one left pending fired after the file's DOM was gone
  // ("document is not defined", an unhandled error that fails the run). Fake timers, run out
  // while the DOM is still there.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
  });

  it('shows the vendor’s sign-in method when the server names it (GOVERNANCE.md §7.3)', () => {
    const { unmount } = render(
      <UserDetailsModal user={{ ...user, signInMethod: 'securityKey' }} onClose={() => {}} />,
    );
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Sign-in methodSecurity key');
    unmount();
    render(<UserDetailsModal user={{ ...user, signInMethod: 'none' }} onClose={() => {}} />);
    expect(screen.getByRole('dialog').textContent).toContain('Sign-in methodNone');
  });

  it('is the dialog "User Details" (GOVERNANCE.md §3.2), the person named in it', () => {
    render(<UserDetailsModal user={user} onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'User Details' }).textContent).toContain('NameVera Key');
  });

  it('leaves the row out for an older server that does not name it', () => {
    render(<UserDetailsModal user={user} onClose={() => {}} />);
    expect(screen.getByRole('dialog').textContent).not.toContain('Sign-in method');
  });
});
