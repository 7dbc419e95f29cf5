import { routes } from '@pra/contracts';
import { compose, linkPara, para, type MailContent, type MailSite } from '../mail-templates';

// The access review mails (GOVERNANCE.md §4.5, R1-R7).

const reviewLink = (site: MailSite) => `${site.publicUrl}${routes.accessReviews}`;
const confirmLink = (site: MailSite) => `${site.publicUrl}${routes.confirmAccess}`;

/** R1: the campaign opens (to the organization's BRMs, or InfoSec when it has none). */
export function reviewOpenedMail(
  site: MailSite,
  p: { organization: string; dueOn: string; items: number },
): MailContent {
  return compose(
    site,
    'review-opened',
    `Action required: review vendor access for ${p.organization} by ${p.dueOn}`,
    [
      para(
        `${p.items} vendor users have access to ${p.organization}. Confirm which still need it by ${p.dueOn}.`,
      ),
      linkPara('Decide on the Access Reviews page:', reviewLink(site)),
    ],
  );
}

/** R2: days 7 and 13, to reviewers with undecided items. */
export function reviewReminderMail(
  site: MailSite,
  p: { organization: string; dueOn: string; undecided: number },
) {
  return compose(
    site,
    'review-reminder',
    `Reminder: ${p.undecided} vendor access decisions for ${p.organization} are due by ${p.dueOn}`,
    [
      para(`${p.undecided} vendor access decisions for ${p.organization} are still open.`),
      linkPara('Decide on the Access Reviews page:', reviewLink(site)),
    ],
  );
}

/** R3: escalation on day 10 (InfoSec, backup BRMs and the BRMs), with the preview's counts. */
export function reviewEscalatedMail(
  site: MailSite,
  p: {
    organization: string;
    dueOn: string;
    undecided: number;
    wouldBeRemoved: number;
    wouldBeDisabled: number;
  },
) {
  return compose(
    site,
    'review-escalated',
    `Escalated: ${p.undecided} undecided vendor access decisions for ${p.organization} (default: remove on ${p.dueOn})`,
    [
      para(
        `If nobody decides by ${p.dueOn}, ${p.wouldBeRemoved} grants will be removed and ` +
          `${p.wouldBeDisabled} accounts disabled because it is their last access.`,
      ),
      linkPara('Decide on the Access Reviews page:', reviewLink(site)),
    ],
  );
}

/** R4: the vendor is asked to confirm (at open; again on day 7 without an answer). */
export function confirmAccessMail(site: MailSite, p: { firstName: string; organization: string }) {
  return compose(site, 'review-confirm-access', `Please confirm you still need access to ${p.organization}`, [
    para(`Hello ${p.firstName},`),
    para(`Your access to ${p.organization} at ${site.hospitalName} is being reviewed. Do you still need it?`),
    linkPara('Answer on the Confirm your access page:', confirmLink(site)),
  ]);
}

/** R5: day 10, the vendor's item still pending and the default is Remove. */
export function accessWillEndMail(
  site: MailSite,
  p: { firstName: string; organization: string; dueOn: string },
) {
  return compose(
    site,
    'review-access-will-end',
    `Your access to ${p.organization} will end on ${p.dueOn} unless your sponsor confirms it`,
    [
      para(`Hello ${p.firstName},`),
      para(
        `Your sponsor has not yet confirmed that you still need access to ${p.organization}. ` +
          `Unless they do by ${p.dueOn}, your access ends on that date.`,
      ),
      linkPara('Tell your sponsor you still need it:', confirmLink(site)),
    ],
  );
}

/** R6: the campaign closed (BRMs and InfoSec). */
export function reviewCompletedMail(
  site: MailSite,
  p: { organization: string; kept: number; removed: number; defaulted: number },
) {
  return compose(
    site,
    'review-completed',
    `Access review for ${p.organization} completed: ${p.kept} kept, ${p.removed} removed, ${p.defaulted} removed by default`,
    [para(`The access review for ${p.organization} has closed and its decisions have been applied.`)],
  );
}

/** R7: a grant removed by the review. */
export function accessRemovedInReviewMail(
  site: MailSite,
  p: { firstName: string; organization: string; reason: string | null },
) {
  return compose(
    site,
    'review-access-removed',
    `Your access to ${p.organization} was removed after an access review`,
    [
      para(`Hello ${p.firstName},`),
      para(
        `Your access to ${p.organization} at ${site.hospitalName} was removed after an access review: ` +
          `${p.reason ?? 'no confirmation was received'}.`,
      ),
      linkPara(
        'If you need it again, request access on the Manage Access page:',
        `${site.publicUrl}${routes.requestAccess}`,
      ),
    ],
  );
}
