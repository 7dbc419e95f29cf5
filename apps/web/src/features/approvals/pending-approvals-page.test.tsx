import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api, textFieldMessages, type PendingApproval } from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, pagedList, signedIn } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const brm = makeUser({ type: 'employee', isEmployeeBrm: true, orgs: ['Acme Imaging'] });
const listKey = `GET ${api.pendingApprovals}`;
const decideKey = `POST ${api.approveOrDeny}`;

function makeApproval(n: number, overrides: Partial<PendingApproval> = {}): PendingApproval {
  const hex = n.toString(16).padStart(12, '0');
  return {
    requestId: `00000000-0000-4000-8000-${hex}`,
    workItemId: `10000000-0000-4000-8000-${hex}`,
    workItemName: `New Account for user${n}@acme.example`,
    type: 'New Account',
    firstname: `First${n}`,
    lastname: `Last${n}`,
    email: `user${n}@acme.example`,
    name: '',
    org: 'Acme Imaging',
    created: `2025-03-${String(n).padStart(2, '0')}T10:00:00Z`,
    praclaimed: 'false',
    jobTitle: 'Field Engineer',
    manager: 'Pat Manager',
    description: '',
    comment: 'Needs MRI access',
    commentAuthor: 'self-registration',
    canDecide: true,
    dueAt: '2025-04-01T03:59:59Z',
    dueInDays: 9,
    forwarded: false,
    onBehalfOf: null,
    history: [],
    ...overrides,
  };
}

/** The server's paging of the list (filter over name, email and organization; each column sorts). */
function approvalsRoute(approvals: PendingApproval[], until?: Promise<unknown>) {
  return pagedList(
    approvals,
    (a) => [a.firstname, a.lastname, `${a.firstname} ${a.lastname}`, a.name, a.email, a.org],
    {
      firstname: (a) => a.firstname,
      lastname: (a) => a.lastname,
      email: (a) => a.email,
      type: (a) => a.type,
      org: (a) => a.org,
      created: (a) => Date.parse(a.created),
    },
    until,
  );
}

function setup(approvals: PendingApproval[]) {
  return installFakeServer(
    { ...bootReplies(signedIn(), brm), [decideKey]: { data: { success: true } } },
    { [listKey]: approvalsRoute(approvals) },
  );
}

const listCalls = (server: ReturnType<typeof setup>) =>
  server.requests.filter((r) => r.key.startsWith(`${listKey}?`));

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('Approvals and Provisioning', () => {
  it('lists tasks five per page and disables the decisions the server says the user may not take', async () => {
    // The item's organization is one of the BRM's: only the server's right decides the buttons.
    setup([
      ...Array.from({ length: 6 }, (_, i) => makeApproval(i + 1)),
      makeApproval(7, { canDecide: false }),
    ]);
    renderApp('/brm/pending-approvals');
    expect(await screen.findByText('user1@acme.example')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Approvals and Provisioning');
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent?.replace(/[▲▼↕]/g, ''));
    expect(headers).toEqual([
      'Details',
      'First Name',
      'Last Name',
      'Email',
      'Request Type',
      'Organization',
      'Created',
      'Actions',
    ]);
    expect(screen.queryByText('user6@acme.example')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    const other = rowOf('user7@acme.example');
    expect(within(other).getByRole('button', { name: 'Approve' })).toHaveProperty('disabled', true);
    expect(within(other).getByRole('button', { name: 'Reject' })).toHaveProperty('disabled', true);
    expect(within(rowOf('user6@acme.example')).getByRole('button', { name: 'Approve' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it('shows the request details in an expandable row', async () => {
    setup([makeApproval(1)]);
    renderApp('/brm/pending-approvals');
    const toggle = await screen.findByRole('button', { name: 'Details for First1 Last1' });
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Pat Manager')).toBeTruthy();
    expect(screen.getByText('Needs MRI access')).toBeTruthy();
    expect(screen.getByText('self-registration')).toBeTruthy();
  });

  it('badges each row after its Request Type and shows the deadline and routing history when expanded', async () => {
    setup([
      makeApproval(1, {
        dueInDays: 2,
        history: [
          { at: '2025-03-01T15:00:00Z', event: 'sent', to: 'Pat Primary' },
          { at: '2025-03-04T15:00:00Z', event: 'reminded', to: 'Pat Primary' },
        ],
      }),
      makeApproval(2, { forwarded: true }),
      makeApproval(3, { onBehalfOf: 'Pat Primary' }),
    ]);
    renderApp('/brm/pending-approvals');
    await screen.findByText('user1@acme.example');
    const due = within(rowOf('user1@acme.example')).getByText('Due in 2 days');
    expect(due.className).toContain('text-bg-danger');
    expect(within(rowOf('user2@acme.example')).getByText('Forwarded to you')).toBeTruthy();
    expect(within(rowOf('user3@acme.example')).getByText('For Pat Primary')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Details for First1 Last1' }));
    expect(screen.getByText('Sent to Pat Primary on Mar 1, 2025')).toBeTruthy();
    expect(screen.getByText('Reminded Pat Primary on Mar 4, 2025')).toBeTruthy();
  });

  it('requires a justification to reject, then reports success and reloads the list', async () => {
    const server = setup([makeApproval(1), makeApproval(2)]);
    renderApp('/brm/pending-approvals');
    await userEvent.click(
      within(await screen.findByText('user2@acme.example').then((el) => el.closest('tr')!)).getByRole(
        'button',
        { name: 'Reject' },
      ),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reject Request' });
    const confirm = within(dialog).getByRole('button', { name: 'Reject' });
    expect(confirm).toHaveProperty('disabled', true);
    await userEvent.type(within(dialog).getByLabelText('Justification'), '   ');
    expect(confirm).toHaveProperty('disabled', true);
    await userEvent.type(within(dialog).getByLabelText('Justification'), 'Unknown person');

    server.routes.set(listKey, approvalsRoute([makeApproval(1)]));
    await userEvent.click(confirm);
    expect(await screen.findByText('Request has been successfully denied')).toBeTruthy();
    expect(server.requests.find((r) => r.key === decideKey)?.data).toEqual({
      decision: 'DENY',
      requestId: makeApproval(2).requestId,
      workItemId: makeApproval(2).workItemId,
      comment: 'Unknown person',
    });
    await waitFor(() => expect(screen.queryByText('user2@acme.example')).toBeNull());
    expect(listCalls(server).map((r) => r.key)).toEqual([
      `${listKey}?page=1&size=5`,
      `${listKey}?page=1&size=5`,
    ]);
  });

  it('refuses a justification with a line break or over 2000 characters, saying why', async () => {
    const server = setup([makeApproval(1)]);
    renderApp('/brm/pending-approvals');
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Request' });
    const field = within(dialog).getByLabelText('Justification');
    const confirm = within(dialog).getByRole('button', { name: 'Reject' });
    await userEvent.type(field, 'Unknown{Enter}person');
    expect(within(dialog).getByText(textFieldMessages.invalidCharacters)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(confirm).toHaveProperty('disabled', true);

    await userEvent.clear(field);
    await userEvent.click(field);
    await userEvent.paste('x'.repeat(2001));
    // Not cut to 2000 by the browser: the whole text stays and the message says what is wrong.
    expect((field as HTMLTextAreaElement).value).toHaveLength(2001);
    expect(within(dialog).getByText('Max 2000 characters')).toBeTruthy();
    expect(confirm).toHaveProperty('disabled', true);
    await userEvent.click(confirm);
    expect(server.requests.some((r) => r.key === decideKey)).toBe(false);
  });

  it('approves after confirmation', async () => {
    const server = setup([makeApproval(1)]);
    renderApp('/brm/pending-approvals');
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Request' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Request has been successfully approved')).toBeTruthy();
    expect(server.requests.find((r) => r.key === decideKey)?.data).toMatchObject({
      decision: 'APPROVE',
      comment: '',
    });
  });

  it('approves an Extend Access item with the Access ends on date, within the policy, and shows its dates', async () => {
    const server = setup([
      makeApproval(1, {
        type: 'Extend Access',
        workItemName: 'Extend Access for user1@acme.example',
        currentEndsOn: '2025-03-20',
        requestedUntilOn: '2025-06-01',
        accessEnds: { defaultDate: '2025-06-01', maxDate: '2026-03-01', accessDays: 180 },
      }),
    ]);
    renderApp('/brm/pending-approvals');
    await userEvent.click(await screen.findByRole('button', { name: 'Details for First1 Last1' }));
    expect(screen.getByText('Current end').nextElementSibling?.textContent).toBe('2025-03-20');
    expect(screen.getByText('Requested until').nextElementSibling?.textContent).toBe('2025-06-01');
    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Request' });
    const ends = within(dialog).getByLabelText<HTMLInputElement>('Access ends on');
    expect(ends.value).toBe('2025-06-01');
    expect(within(dialog).getByText(/Policy for Acme Imaging: up to 180 days/)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Approve' });
    await userEvent.clear(ends);
    await userEvent.type(ends, '2026-03-02');
    expect(
      within(dialog).getByText('The end date must be in the future and no later than 2026-03-01'),
    ).toBeTruthy();
    expect(confirm).toHaveProperty('disabled', true);
    await userEvent.clear(ends);
    await userEvent.type(ends, '2025-07-15');
    await userEvent.click(confirm);
    expect((await screen.findAllByText('Request has been successfully approved')).length).toBeGreaterThan(0);
    const sent = server.requests.filter((r) => r.key === decideKey);
    expect(sent.map((r) => r.data)).toEqual([
      expect.objectContaining({ decision: 'APPROVE', accessEndsOn: '2025-07-15' }),
    ]);
  });

  it("says 'No approval tasks found' when there is nothing to decide", async () => {
    setup([]);
    renderApp('/brm/pending-approvals');
    expect(await screen.findByText('No approval tasks found')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: /pages/ })).toBeNull();
  });

  it('asks the server for five at a time, filtered once typing pauses and sorted by the clicked column', async () => {
    const server = setup(
      Array.from({ length: 12 }, (_, i) =>
        makeApproval(i + 1, { org: i % 2 ? 'Beta Labs' : 'Acme Imaging' }),
      ),
    );
    renderApp('/brm/pending-approvals');
    expect(await screen.findByText('user1@acme.example')).toBeTruthy();
    const pages = screen.getByRole('navigation', { name: 'Approval tasks pages' });
    expect(
      within(pages)
        .getAllByRole('button', { name: /^Page \d$/ })
        .map((b) => b.textContent),
    ).toEqual(['1', '2', '3']);
    await userEvent.click(screen.getByRole('button', { name: /^Created/ }));
    await waitFor(() =>
      expect(listCalls(server).at(-1)?.key).toBe(`${listKey}?page=1&size=5&sort=created&direction=asc`),
    );
    await userEvent.click(screen.getByRole('button', { name: /^Created/ }));
    expect(await screen.findByText('user12@acme.example')).toBeTruthy();
    const before = listCalls(server).length;
    await userEvent.type(screen.getByLabelText('Filter by name, email or organization'), 'beta');
    expect(listCalls(server).length).toBe(before);
    await waitFor(() => expect(screen.queryByText('user11@acme.example')).toBeNull());
    expect(
      listCalls(server)
        .slice(before)
        .map((r) => r.key),
    ).toEqual([`${listKey}?page=1&size=5&filter=beta&sort=created&direction=desc`]);
    expect(screen.getByText('user12@acme.example')).toBeTruthy();
  });
});
