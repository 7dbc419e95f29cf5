import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { api } from '@pra/contracts';
import { createQueryClient } from '../../lib/query-client';
import { installFakeServer } from '../../test/fake-server';
import { GOOD_PASSWORD, makePasswordRequirements } from '../../test/password-policy';
import { emptyPasswordPair } from './evaluate-password';
import { PasswordField } from './password-field';
import { shownScore } from './password-strength';

// Counts the loads of zxcvbn's dictionaries (the module itself stays real).
const dictionaries = vi.hoisted(() => ({ loads: 0 }));
vi.mock('@zxcvbn-ts/language-common', async (importOriginal) => {
  dictionaries.loads += 1;
  return importOriginal();
});

function Harness({ onValidityChange }: { onValidityChange: (isValid: boolean) => void }) {
  const [value, setValue] = useState(emptyPasswordPair);
  return (
    <PasswordField username="jdoe" value={value} onChange={setValue} onValidityChange={onValidityChange} />
  );
}

function renderField() {
  installFakeServer({
    [`GET ${api.passwordRequirements}?username=jdoe`]: {
      data: makePasswordRequirements(['jdoe', 'hospital']),
    },
  });
  const onValidityChange = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Harness onValidityChange={onValidityChange} />
    </QueryClientProvider>,
  );
  return onValidityChange;
}

const item = (text: string) => screen.getByText(text).closest('li')!;

describe('PasswordField', () => {
  // First in the file: the module registry loads the dictionaries once per file.
  it('loads the dictionaries when someone turns to the new password, not on arrival', async () => {
    renderField();
    await screen.findByRole('list');
    expect(item('Not a commonly used password')).toBeTruthy();
    expect(dictionaries.loads).toBe(0);
    await userEvent.click(screen.getByLabelText('New Password'));
    await waitFor(() => expect(dictionaries.loads).toBe(1));
  });

  it('lists the rules neutrally before anything is typed, then each with a textual met / not met state', async () => {
    renderField();
    const list = await screen.findByRole('list');
    // Nothing typed yet: no rule is marked failed (no red crosses, no 'not met').
    expect(list.textContent).not.toMatch(/met\)/);
    expect(list.querySelector('.text-danger')).toBeNull();
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toBe('Min length: 12');
    await userEvent.type(screen.getByLabelText('New Password'), 'a');
    expect(
      within(screen.getByRole('list'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Min length: 12 (not met)',
      'Max length: 128 (met)',
      'Min uppercase characters: 1 (not met)',
      'Min lowercase characters: 1 (met)',
      'Min number of symbols: 1 (not met)',
      'Min amount of numbers: 1 (not met)',
      'Max repeated characters: 2 (met)',
      'Min character types: 3 (not met)',
      // Unmet only until the common-password list has loaded.
      expect.stringMatching(/^Not a commonly used password \((met|not met)\)$/),
    ]);
    await userEvent.type(screen.getByLabelText('New Password'), 'bcD');
    expect(item('Min uppercase characters: 1').textContent).toContain('(met)');
    expect(item('Min length: 12').textContent).toContain('(not met)');
  });

  it('names a blocked term the password contains', async () => {
    renderField();
    await screen.findByRole('list');
    await userEvent.type(screen.getByLabelText('New Password'), 'My-Hospital-Pass-1');
    expect(item('Contains blocked term: hospital').textContent).toContain('(not met)');
  });

  it("says 'Passwords must match' and reports validity only for a good, confirmed password", async () => {
    const onValidityChange = renderField();
    await screen.findByRole('list');
    await userEvent.type(screen.getByLabelText('New Password'), GOOD_PASSWORD);
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Correct');
    const confirm = screen.getByLabelText('Confirm Password');
    expect(confirm.className).toContain('is-invalid');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    // The message is tied to the field, so screen readers read it with the field.
    const describedBy = confirm.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('Passwords must match');
    const newPassword = screen.getByLabelText('New Password');
    expect(document.getElementById(newPassword.getAttribute('aria-describedby') ?? '')).toBe(
      screen.getByText('Password requirements').closest('div'),
    );
    expect(onValidityChange).toHaveBeenLastCalledWith(false);

    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('Confirm Password'), GOOD_PASSWORD);
    expect(screen.getByLabelText('Confirm Password').className).not.toContain('is-invalid');
    expect(screen.getByLabelText('Confirm Password').hasAttribute('aria-describedby')).toBe(false);
    expect(screen.getByLabelText('Confirm Password').hasAttribute('aria-invalid')).toBe(false);
    expect(screen.queryByText('Passwords must match')).toBeNull();
    await waitFor(() => expect(onValidityChange).toHaveBeenLastCalledWith(true), { timeout: 5000 });
    expect(screen.getByRole('status').textContent).toBe('All password requirements met');
  });

  it('shows the common-password rule the server enforces and refuses a password on the list', async () => {
    const onValidityChange = renderField();
    await screen.findByRole('list');
    // Meets every other rule, but is on zxcvbn's common-password list.
    const common = 'P030710p$e4o';
    await userEvent.type(screen.getByLabelText('New Password'), common);
    await userEvent.type(screen.getByLabelText('Confirm Password'), common);
    await waitFor(() => expect(item('Not a commonly used password').textContent).toContain('(not met)'));
    expect(screen.getByRole('status').textContent).toBe('1 password requirements not met');
    expect(onValidityChange).toHaveBeenLastCalledWith(false);
    await userEvent.type(screen.getByLabelText('New Password'), 'x');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'x');
    await waitFor(() => expect(item('Not a commonly used password').textContent).toContain('(met)'), {
      timeout: 5000,
    });
    expect(onValidityChange).toHaveBeenLastCalledWith(true);
  });

  it('shows an advisory strength meter once the estimator has loaded', async () => {
    renderField();
    await screen.findByRole('list');
    await userEvent.type(screen.getByLabelText('New Password'), 'password');
    const meter = await screen.findByRole('meter', { name: 'Password strength' }, { timeout: 5000 });
    expect(meter.getAttribute('aria-valuetext')).toBe('Very weak');
  });

  it("never says 'Strong' while a rule is unmet", async () => {
    renderField();
    await screen.findByRole('list');
    // Long and random, so hard to guess, but lowercase only: three rules unmet.
    await userEvent.type(screen.getByLabelText('New Password'), 'zqxjkvbwplmtrgfdsahuyc');
    const meter = await screen.findByRole('meter', { name: 'Password strength' }, { timeout: 5000 });
    expect(item('Min uppercase characters: 1').textContent).toContain('(not met)');
    expect(meter.getAttribute('aria-valuetext')).toBe('Fair');
  });
});

describe('shownScore', () => {
  it('caps the estimate while a rule is unmet and shows it as is once all are met', () => {
    expect(shownScore(4, false)).toBe(2);
    expect(shownScore(1, false)).toBe(1);
    expect(shownScore(4, true)).toBe(4);
  });
});
