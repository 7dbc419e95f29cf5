import Nav from 'react-bootstrap/Nav';
import { adminRoutes } from '@pra/contracts/paths';
import { Link, Outlet, useActiveLink } from '../../lib/routing/router';
import './administration.css';

const sections = [
  { to: adminRoutes.organizations, label: 'Organizations' },
  { to: adminRoutes.people, label: 'People' },
  { to: adminRoutes.governance, label: 'Governance policies' },
  { to: adminRoutes.reportEnding, label: 'Access ending' },
  { to: adminRoutes.reportSponsorship, label: 'Sponsorship' },
  { to: adminRoutes.reportActivity, label: 'Activity Review' },
  { to: adminRoutes.systemMessage, label: 'System message' },
  { to: adminRoutes.maintenance, label: 'Maintenance' },
  { to: adminRoutes.mail, label: 'Mail' },
  { to: adminRoutes.directory, label: 'Directory' },
  { to: adminRoutes.audit, label: 'Audit trail' },
  { to: adminRoutes.reviews, label: 'Reviews' },
  { to: adminRoutes.aup, label: 'Acceptable Use Policy' },
  { to: adminRoutes.serviceTokens, label: 'Service tokens' },
];

/** The Administration screens: a heading, a tab for each section, the section below. */
export function AdminLayout() {
  return (
    <>
      <h1 className="page-title">Administration</h1>
      <nav aria-label="Administration sections">
        <Nav as="ul" variant="tabs" className="mb-3">
          {sections.map((section) => (
            <Nav.Item as="li" key={section.to}>
              <SectionLink {...section} />
            </Nav.Item>
          ))}
        </Nav>
      </nav>
      <Outlet />
    </>
  );
}

function SectionLink({ to, label }: { to: string; label: string }) {
  return (
    <Nav.Link as={Link} to={to} className="text-nowrap" {...useActiveLink(to)}>
      {label}
    </Nav.Link>
  );
}
