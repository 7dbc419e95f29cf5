import ListGroup from 'react-bootstrap/ListGroup';
import { adminRoutes } from '@pra/contracts/paths';
import { Link } from '../../../lib/routing/router';

/**
 * The reports of Administration → Reports (GOVERNANCE.md §9.2), in the order shown. One array:
 * a new report adds its entry here and its page to the router's `reportPages`.
 */
export const reportEntries: readonly { to: string; title: string; description: string }[] = [
  {
    to: adminRoutes.reportVendorAccess,
    title: 'Vendor Access',
    description:
      'Who had access to an organization during a period: since and until when, sponsor, approver, last review, last sign-in, sign-in method.',
  },
  {
    to: adminRoutes.reportEnding,
    title: 'Access Ending',
    description: 'Vendor access that ends in the coming days, by end date.',
  },
  {
    to: adminRoutes.reportDormant,
    title: 'Dormant and Disabled',
    description:
      'Vendors warned for inactivity, accounts disabled (reason, since, when they close), accounts never activated.',
  },
  {
    to: adminRoutes.reportSponsorship,
    title: 'Sponsorship',
    description: 'Grants with no sponsor, or a sponsor who no longer manages the organization.',
  },
  {
    to: adminRoutes.reportAcceptableUse,
    title: 'Acceptable Use Policy',
    description: 'Who accepted which version of the Acceptable Use Policy, and who has not.',
  },
  {
    to: adminRoutes.reportSignInStrength,
    title: 'Sign-in Strength',
    description: 'Per organization, the share of vendors who sign in with a security key or passkey.',
  },
  {
    to: adminRoutes.reportReviewEvidence,
    title: 'Review Evidence',
    description:
      'Per access review campaign: evidence.csv and its manifest evidence.json (with the SHA-256).',
  },
  {
    to: adminRoutes.reportActivity,
    title: 'Activity Review',
    description: 'The weekly digests of vendor-access activity, and who reviewed them.',
  },
];

/** Administration → Reports: the hub, one link per report; every list downloads as CSV. */
export function ReportsPage() {
  return (
    <section aria-labelledby="reports-heading">
      <h2 id="reports-heading" className="h4">
        Reports
      </h2>
      <p>
        Every report reads the portal’s current data and downloads as CSV; each download is recorded in the
        audit trail with who made it.
      </p>
      <ListGroup as="ul">
        {reportEntries.map((entry) => (
          <ListGroup.Item as="li" key={entry.to}>
            <Link to={entry.to} className="fw-semibold">
              {entry.title}
            </Link>
            <div className="small text-body-secondary">{entry.description}</div>
          </ListGroup.Item>
        ))}
      </ListGroup>
    </section>
  );
}
