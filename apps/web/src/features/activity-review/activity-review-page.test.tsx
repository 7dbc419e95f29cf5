import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  activityReviewApi,
  activityReviewMessages as text,
  adminApi,
  type ActivityReviewDetail,
} from '@pra/contracts';
import { bootReplies, installFakeServer, makeUser, signedIn } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

// Administration → Activity Review (GOVERNANCE.md §9.2) against a fake server.

const admin = makeUser({ type: 'employee', isAdmin: true, orgs: [] });
const auditor = makeUser({ type: 'employee', isAdmin: true, isAuditor: true, orgs: [] });
const from = '2027-03-08T05:00:00.000Z';
const until = '2027-03-15T04:00:00.000Z';
const link = (q: string) =>
  `/admin/audit?${q}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(until)}`;

const detail: ActivityReviewDetail = {
  periodStart: '2027-03-08',
  periodEnd: '2027-03-14',
  period: '2027-03-08 to 2027-03-14',
  generatedAt: '2027-03-15T10:00:00.000Z',
  status: 'generated',
  total: 3,
  reviewed: null,
  digest: {
    periodStart: '2027-03-08',
    periodEnd: '2027-03-14',
    zone: 'America/New_York',
    from,
    until,
    sections: [
      {
        key: 'expiries',
        title: 'Expiries',
        count: 1,
        actions: [{ action: 'grant.expire', count: 1, link: link('action=grant.expire') }],
        events: [
          {
            id: 'e1',
            at: '2027-03-15T03:59:59.000Z',
            action: 'grant.expire',
            actor: 'system',
            target: 'vic',
            organization: 'Acme Imaging',
            detail: 'reason: expired',
          },
        ],
        more: 0,
      },
      {
        key: 'failedSignIns',
        title: 'Failed sign-ins and lockouts',
        count: 2,
        actions: [
          { action: 'signin.password', count: 2, link: link('action=signin.password&outcome=failure') },
        ],
        events: [],
        more: 0,
        perVendor: [
          {
            username: 'vic',
            failures: 2,
            lockouts: 0,
            link: link('action=signin&outcome=failure&target=vic'),
          },
        ],
        unknownUsernames: 0,
      },
      { key: 'terminations', title: 'Terminations', count: 0, actions: [], events: [], more: 0 },
    ],
  },
};
const weekUrl = activityReviewApi.week.replace(':week', '2027-03-08');
const signOffUrl = activityReviewApi.signOff.replace(':week', '2027-03-08');

describe('Activity Review', () => {
  it('lists the weeks with their review state', async () => {
    installFakeServer({
      ...bootReplies(signedIn(), admin),
      [`GET ${activityReviewApi.list}`]: {
        data: {
          reviews: [
            { ...detail, digest: undefined },
            {
              ...detail,
              periodStart: '2027-03-01',
              periodEnd: '2027-03-07',
              period: '2027-03-01 to 2027-03-07',
              status: 'reviewed',
              reviewed: {
                name: 'Ada Lovelace',
                on: '2027-03-09',
                at: '2027-03-09T14:00:00.000Z',
                note: 'Fine.',
              },
            },
          ],
        },
      },
    });
    renderApp('/admin/reports/activity');
    expect(
      (
        await screen.findByRole('link', { name: '2027-03-08 to 2027-03-14' }, { timeout: 10_000 })
      ).getAttribute('href'),
    ).toBe('/admin/reports/activity?week=2027-03-08');
    expect(screen.getByText(text.notReviewed)).toBeTruthy();
    expect(screen.getByText('Reviewed by Ada Lovelace on 2027-03-09')).toBeTruthy();
  });

  it('shows a week’s counts and lists with audit-trail links; Mark Reviewed needs a note', async () => {
    const server = installFakeServer({
      ...bootReplies(signedIn(), admin),
      [`GET ${weekUrl}`]: { data: detail },
      [`GET ${activityReviewApi.list}`]: { data: { reviews: [] } },
      [`POST ${signOffUrl}`]: { data: { success: true } },
    });
    renderApp('/admin/reports/activity?week=2027-03-08');
    expect(
      await screen.findByRole('heading', { name: 'Week 2027-03-08 to 2027-03-14' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'grant.expire (1)' }).getAttribute('href')).toBe(
      link('action=grant.expire'),
    );
    expect(screen.getByRole('link', { name: 'vic' }).getAttribute('href')).toBe(
      link('action=signin&outcome=failure&target=vic'),
    );
    expect(screen.getByRole('region', { name: 'Expiries (1)' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: /^Terminations/ })).toBeNull(); // nothing to list
    await userEvent.click(screen.getByRole('button', { name: text.markReviewed }));
    expect(await screen.findByText(text.noteRequired)).toBeTruthy();
    expect(server.requests.some((r) => r.key.startsWith('POST'))).toBe(false);
    await userEvent.type(screen.getByLabelText(text.note), '  Looked at vic.  ');
    await userEvent.click(screen.getByRole('button', { name: text.markReviewed }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.key === `POST ${signOffUrl}`)?.data).toEqual({
        note: 'Looked at vic.',
      }),
    );
  });

  it('shows the auditor the week without Mark Reviewed', async () => {
    installFakeServer({ ...bootReplies(signedIn(), auditor), [`GET ${weekUrl}`]: { data: detail } });
    renderApp('/admin/reports/activity?week=2027-03-08');
    expect(
      await screen.findByRole('heading', { name: 'Week 2027-03-08 to 2027-03-14' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByText(text.notReviewed)).toBeTruthy();
    expect(screen.queryByRole('button', { name: text.markReviewed })).toBeNull();
  });

  it('opens the audit trail with the filters of a link', async () => {
    const server = installFakeServer(
      { ...bootReplies(signedIn(), admin) },
      {
        [`GET ${adminApi.audit}`]: () => ({ data: { events: [], nextCursor: null } }),
      },
    );
    renderApp(link('action=signin&outcome=failure&target=vic'));
    await waitFor(() =>
      expect(server.requests.map((r) => r.key)).toContainEqual(
        `GET ${adminApi.audit}?target=vic&action=signin&outcome=failure&from=${encodeURIComponent(from)}&to=${encodeURIComponent(until)}&limit=50`,
      ),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Target').value).toBe('vic');
  });
});
