import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { api, NOT_REACHED, TERMINATE_JOB_THRESHOLD, terminateMessages } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';
import { resultsCsv } from './results-csv';
import { JOB_STORAGE_KEY } from './use-terminate';

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

  it('terminates a large file as a job: progress, results filling in, stop, and a reload that finds it again', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const emails = Array.from({ length: TERMINATE_JOB_THRESHOLD + 1 }, (_, i) => `v${i}@x.example`);
    const job = `${api.terminateJobs}/${id}`;
    const view = (over: object) => ({
      id,
      status: 'running',
      total: emails.length,
      done: 0,
      cancelRequested: false,
      error: null,
      results: [],
      next: 0,
      ...over,
    });
    const server = installFakeServer({
      ...bootReplies(signedIn(), brm),
      [key]: { data: emails.map(() => 'Would lose its roles.') },
      [`POST ${api.terminateJobs}`]: { data: { id } },
      [`GET ${job}?from=0`]: {
        data: view({ done: 1, emails, results: [{ item: 0, result: 'Roles removed.' }], next: 1 }),
      },
      [`GET ${job}?from=1`]: { data: view({ done: 1, next: 1 }) },
      [`POST ${job}/cancel`]: { data: { id } },
    });
    renderApp('/brm/terminate-vendors');
    await userEvent.upload(
      await screen.findByLabelText('CSV file of email addresses'),
      file(emails.join('\n')),
    );
    await screen.findAllByText('Would lose its roles.');
    await userEvent.click(screen.getByRole('button', { name: 'Terminate Users' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm termination' }),
    );
    expect(await screen.findByText('Terminating: 1 of 501 emails done.')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Termination progress' })).toBeTruthy();
    expect(screen.getByText('Roles removed.')).toBeTruthy();
    expect(server.requests.find((r) => r.key === `POST ${api.terminateJobs}`)?.data).toEqual({ emails });
    expect(sessionStorage.getItem(JOB_STORAGE_KEY)).toBe(id);
    expect(screen.getByRole('button', { name: 'Terminate Users' })).toHaveProperty('disabled', true);

    await userEvent.click(screen.getByRole('button', { name: 'Stop terminating' }));
    expect(server.requests.some((r) => r.key === `POST ${job}/cancel`)).toBe(true);
    // The job stops; the page, reloaded, finds it and shows what happened and what was not reached.
    server.replies.set(`GET ${job}?from=0`, {
      data: view({
        status: 'cancelled',
        done: 1,
        emails,
        results: [
          { item: 0, result: 'Roles removed.' },
          ...emails.slice(1).map((_, i) => ({ item: i + 1, result: NOT_REACHED })),
        ],
        next: emails.length,
      }),
    });
    renderApp('/brm/terminate-vendors');
    expect(
      await screen.findByText('Stopped: 1 of 501 emails done; nothing changed for the others.'),
    ).toBeTruthy();
    expect(screen.getAllByText(NOT_REACHED).length).toBeGreaterThan(0);
    await userEvent.click(screen.getAllByRole('button', { name: 'Done' }).at(-1)!);
    expect(sessionStorage.getItem(JOB_STORAGE_KEY)).toBeNull();
  });

  it('writes results as CSV with formula cells neutralised', () => {
    expect(resultsCsv(['=cmd@x.example'], ['+bad, "quoted"'])).toBe(
      'Email,Result\r\n\'=cmd@x.example,"\'+bad, ""quoted"""\r\n',
    );
  });
});
