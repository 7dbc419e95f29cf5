import { expect, type APIRequestContext } from '@playwright/test';

export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/**
 * Waits until the dev mailbox holds a mail to `to` whose subject matches (and whose text holds
 * `contains`, when given; written at or after `since`, ms since the epoch, when given), and
 * returns it.
 */
export async function waitForMail(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
  contains = '',
  since = 0,
): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/dev/mailbox/api/messages');
        const mails = (await response.json()) as Mail[];
        found = mails.find(
          (m) =>
            m.to.toLowerCase() === to.toLowerCase() &&
            subject.test(m.subject) &&
            m.text.includes(contains) &&
            Date.parse(m.createdAt) >= since,
        );
        return Boolean(found);
      },
      { message: `a mail to ${to} with subject ${subject}`, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** The activation link inside an approval mail. */
export function activationLink(mail: Mail): string {
  const match = /https?:\/\/\S+\/activate-account\?code=[A-Z0-9-]+/.exec(mail.text);
  if (!match) throw new Error(`no activation link in: ${mail.text}`);
  return match[0];
}
