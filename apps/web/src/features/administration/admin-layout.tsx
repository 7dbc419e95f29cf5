import Nav from 'react-bootstrap/Nav';
import { adminRoutes } from '@pra/contracts/paths';
import { Link, Navigate, Outlet, useActiveLink } from '../../lib/routing/router';
import { isAdmin } from '../../lib/account-kinds';
import { useCurrentUser } from '../../lib/use-current-user';
import './administration.css';

/** The sections; `auditors`: open to auditors who are not admins (GOVERNANCE.md §9.2). */
const sections = [
  { to: adminRoutes.organizations, label: 'Organizations' },
  { to: adminRoutes.people, label: 'People' },
  { to: adminRoutes.governance, label: 'Governance policies' },
  { to: adminRoutes.reports, label: 'Reports', auditors: true },
  { to: adminRoutes.systemMessage, label: 'System message' },
  { to: adminRoutes.maintenance, label: 'Maintenance' },
  { to: adminRoutes.mail, label: 'Mail' },
  { to: adminRoutes.directory, label: 'Directory' },
  { to: adminRoutes.audit, label: 'Audit trail', auditors: true },
  { to: adminRoutes.reviews, label: 'Reviews' },
  { to: adminRoutes.aup, label: 'Acceptable Use Policy' },
  { to: adminRoutes.serviceTokens, label: 'Service tokens' },
];

/** Whether the signed-in person sees every section (an admin) or the reports' only (an auditor). */
function useSeesEverything(): boolean {
  const user = useCurrentUser().data;
  return user !== undefined && isAdmin(user);
}

/** /admin: an admin's first section, an auditor's Reports. */
export function AdminHome() {
  return <Navigate to={useSeesEverything() ? adminRoutes.organizations : adminRoutes.reports} replace />;
}

/** The Administration screens: a heading, a tab for each section, the section below. */
export function AdminLayout() {
  const everything = useSeesEverything();
  return (
    <>
      <h1 className="page-title">Administration</h1>
      <nav aria-label="Administration sections">
        <Nav as="ul" variant="tabs" className="mb-3">
          {sections
            .filter((section) => everything || section.auditors)
            .map((section) => (
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
