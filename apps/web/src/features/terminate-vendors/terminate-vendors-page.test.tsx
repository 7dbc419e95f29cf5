import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { api, terminateMessages } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';
import { resultsCsv } from './results-csv';

const brm = makeUser({ type: 'employee', isEmployeeBrm: true, orgs: ['Acme Imaging'] });
const key = `POST ${api.terminateVendors}`;

const file = (text: string) => new File([text], 'emails.csv', { type: 'text/csv' });

describe('Terminate Vendors', () => {
  it('refuses empty and invalid files with the spec messages', async () => {
    installFakeServer(bootReplies(signedIn(), brm));
    renderApp('/brm/terminate-vendors');
    const input = await screen.findByLabelText('CSV file of email addresses');
    await userEvent.upload(input, file('  \n'));
    expect(await screen.findByText(terminateMessages.emptyFile)).toBeTruthy();
    await userEvent.upload(input, file('a@x.example\nnot-an-email'));
    expect(await screen.findByText(terminateMessages.invalidEmails)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Terminate Users' })).toHaveProperty('disabled', true);
  });

  it('previews, asks for confirmation, then shows the results and Done', async () => {
    const server = installFakeServer({
      ...bootReplies(signedIn(), brm),
      [key]: { data: ['Would lose its roles.', 'No vendor account of your organizations has this email.'] },
    });
    renderApp('/brm/terminate-vendors');
    await userEvent.upload(
      await screen.findByLabelText('CSV file of email addresses'),
      file('a@x.example, b@x.example'),
    );
    expect(await screen.findByText('Would lose its roles.')).toBeTruthy();
    expect(server.requests.at(-1)?.data).toEqual({ emails: ['a@x.example', 'b@x.example'], dryRun: true });
    server.replies.set(key, {
      data: ['Roles removed.', 'No vendor account of your organizations has this email.'],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Terminate Users' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm termination' }));
    expect(await screen.findByText('Roles removed.')).toBeTruthy();
    expect(server.requests.at(-1)?.data).toEqual({ emails: ['a@x.example', 'b@x.example'] });
    expect(screen.getByRole('button', { name: 'Done' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Terminate Users' })).toBeNull();
  });

  it('withdraws the preview of a file replaced by a newer one', async () => {
    let answerFirst: (value?: unknown) => void = () => undefined;
    const server = installFakeServer({
      ...bootReplies(signedIn(), brm),
      [key]: { data: ['Would lose its roles.'], until: new Promise((resolve) => (answerFirst = resolve)) },
    });
    renderApp('/brm/terminate-vendors');
    const input = await screen.findByLabelText('CSV file of email addresses');
    await userEvent.upload(input, file('a@x.example'));
    await vi.waitFor(() => expect(server.requests.some((r) => r.key === key)).toBe(true));
    const first = server.requests.find((r) => r.key === key);
    server.replies.set(key, { data: ['Not found: no account has this email.'] });
    await userEvent.upload(input, file('b@x.example'));
    expect(await screen.findByText('Not found: no account has this email.')).toBeTruthy();
    expect(first?.signal?.aborted).toBe(true);
    answerFirst();
  });

  it('writes results as CSV with formula cells neutralised', () => {
    expect(resultsCsv(['=cmd@x.example'], ['+bad, "quoted"'])).toBe(
      'Email,Result\r\n\'=cmd@x.example,"\'+bad, ""quoted"""\r\n',
    );
  });
});
