import { adminApi, type AdminOrganization, type AdminPerson } from '@pra/contracts';
import { pagedList, type FakeReply, type FakeRoute } from './fake-server';

interface Mail {
  recipient: string;
  subject: string;
  createdAt: string;
}

/**
 * The paged answers of the admin lists (organizations, people, mail) over the rows of their whole
 * lists' canned replies, as the server pages them: people without the removed ones, mail newest
 * first unless sorted.
 */
export function adminListRoutes(replies: Record<string, FakeReply>): Record<string, FakeRoute> {
  const routes: Record<string, FakeRoute> = {};
  const whole = (path: string) => replies[`GET ${path}`]?.data as Record<string, unknown[]> | undefined;
  const orgs = whole(adminApi.organizations)?.organizations as AdminOrganization[] | undefined;
  if (orgs)
    routes[`GET ${adminApi.organizations}`] = pagedList(orgs, (o) => [o.name, ...o.domains], {
      name: (o) => o.name,
    });
  const people = whole(adminApi.people)?.people as AdminPerson[] | undefined;
  if (people)
    routes[`GET ${adminApi.people}`] = pagedList(
      people.filter((p) => p.status !== 'terminated'),
      (p) => [p.username, p.email, p.givenName, p.familyName, `${p.givenName} ${p.familyName}`],
      { username: (p) => p.username, givenName: (p) => p.givenName },
    );
  const mails = whole(adminApi.mail)?.mails as Mail[] | undefined;
  if (mails)
    routes[`GET ${adminApi.mail}`] = pagedList(
      [...mails].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
      (m) => [m.recipient, m.subject],
      { createdAt: (m) => m.createdAt, recipient: (m) => m.recipient },
    );
  return routes;
}
