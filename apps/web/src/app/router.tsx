import { adminRoutes, routes, routingRoutes } from '@pra/contracts/paths';
import { HomePage } from '../features/home/home-page';
import { FakeSpPage } from '../features/fake-sp/fake-sp-page';
import { ErrorPage, NotFoundPage, StandaloneErrorPage } from './error-page';
import type { AccessRule } from './guards/access-rules';
import { RootRedirect } from './guards/root-redirect';
import { RootShell } from './root-shell';
import { lazyRoute, type Route } from '../lib/routing/router';

// Only the landing page's own code loads up front: every other page, the shared layout and the
// sign-in guards (which bring the schema library with them) load on demand, so /home stays small.
const page = (title: string, load: () => Promise<React.ComponentType>): Route => ({
  title,
  ...lazyRoute(load),
});

/** A layout route letting `children` render only when `rule` allows the current person. */
function guarded(rule: AccessRule, children: Route[]): Route {
  const load = async () => {
    const { RequireAccess } = await import('./guards/require-access');
    return function Guard() {
      return <RequireAccess rule={rule} />;
    };
  };
  return { ...lazyRoute(load), children };
}

/** The Administration sections, each its own chunk, inside the Administration layout. */
const adminPages: Route[] = [
  {
    path: adminRoutes.organizations,
    ...page(
      'Organizations',
      async () => (await import('../features/administration/organizations-page')).OrganizationsPage,
    ),
  },
  {
    path: adminRoutes.people,
    ...page('People', async () => (await import('../features/administration/people-page')).PeoplePage),
  },
  {
    path: adminRoutes.governance,
    ...page(
      'Governance Policies',
      async () =>
        (await import('../features/administration/governance-policies-page')).GovernancePoliciesPage,
    ),
  },
  {
    path: adminRoutes.systemMessage,
    ...page(
      'System Message',
      async () => (await import('../features/administration/system-message-page')).SystemMessagePage,
    ),
  },
  {
    path: adminRoutes.maintenance,
    ...page(
      'Maintenance',
      async () => (await import('../features/administration/maintenance-page')).MaintenancePage,
    ),
  },
  {
    path: adminRoutes.mail,
    ...page('Mail', async () => (await import('../features/administration/mail-page')).MailPage),
  },
  {
    path: adminRoutes.directory,
    ...page(
      'Directory',
      async () => (await import('../features/administration/directory-page')).DirectoryPage,
    ),
  },
  {
    path: adminRoutes.reviews,
    ...page(
      'Reviews',
      async () => (await import('../features/access-reviews/admin-reviews-page')).AdminReviewsPage,
    ),
  },
  {
    path: adminRoutes.aup,
    ...page(
      'Acceptable Use Policy',
      async () => (await import('../features/policy-attestation/admin-aup-page')).AdminAupPage,
    ),
  },
  {
    path: adminRoutes.serviceTokens,
    ...page(
      'Service Tokens',
      async () => (await import('../features/administration/service-tokens-page')).ServiceTokensPage,
    ),
  },
];

/**
 * Administration → Reports (GOVERNANCE.md §9.2) and the audit trail: admins and auditors, who need
 * not be admins. Other reports' pages join here (and the hub's list, reports-page.tsx).
 */
const reportPages: Route[] = [
  {
    path: adminRoutes.reports,
    ...page(
      'Reports',
      async () => (await import('../features/administration/reports/reports-page')).ReportsPage,
    ),
  },
  {
    path: adminRoutes.reportVendorAccess,
    ...page(
      'Vendor Access',
      async () => (await import('../features/administration/reports/vendor-access-page')).VendorAccessPage,
    ),
  },
  {
    path: adminRoutes.reportEnding,
    ...page(
      'Access Ending',
      async () => (await import('../features/administration/access-ending-page')).AccessEndingPage,
    ),
  },
  {
    path: adminRoutes.reportDormant,
    ...page(
      'Dormant and Disabled',
      async () => (await import('../features/administration/reports/dormant-page')).DormantPage,
    ),
  },
  {
    path: adminRoutes.reportAcceptableUse,
    ...page(
      'Acceptable Use Policy',
      async () => (await import('../features/administration/reports/acceptable-use-page')).AcceptableUsePage,
    ),
  },
  {
    path: adminRoutes.reportSponsorship,
    ...page(
      'Sponsorship',
      async () => (await import('../features/administration/sponsorship-page')).SponsorshipPage,
    ),
  },
  {
    path: adminRoutes.reportSignInStrength,
    ...page(
      'Sign-in Strength',
      async () =>
        (await import('../features/administration/reports/sign-in-strength-page')).SignInStrengthPage,
    ),
  },
  {
    path: adminRoutes.reportReviewEvidence,
    ...page(
      'Review Evidence',
      async () =>
        (await import('../features/administration/reports/review-evidence-page')).ReviewEvidencePage,
    ),
  },
  {
    path: adminRoutes.reportActivity,
    ...page(
      'Activity Review',
      async () => (await import('../features/activity-review/activity-review-page')).ActivityReviewPage,
    ),
  },
  {
    path: adminRoutes.audit,
    ...page('Audit Trail', async () => (await import('../features/administration/audit-page')).AuditPage),
  },
];

const routesInSharedLayout: Route[] = [
  {
    path: routes.authFailure,
    ...page(
      'Authentication Failure',
      async () => (await import('../features/auth-failure/auth-failure-page')).AuthFailurePage,
    ),
  },
  {
    path: routes.statusCheck,
    ...page(
      'Service Status',
      async () => (await import('../features/status-check/status-check-page')).StatusCheckPage,
    ),
  },
  {
    path: routes.activateAccount,
    ...page(
      'Account Activation',
      async () => (await import('../features/activation/activate-account-page')).ActivateAccountPage,
    ),
  },
  {
    path: routes.forgotUserId,
    ...page(
      'Forgot User ID',
      async () => (await import('../features/recovery/forgot-user-id-page')).ForgotUserIdPage,
    ),
  },
  {
    path: routes.forgotPassword,
    ...page(
      'Forgot Password',
      async () => (await import('../features/recovery/forgot-password-page')).ForgotPasswordPage,
    ),
  },
  {
    path: routes.authenticator,
    ...page(
      'Authenticator',
      async () => (await import('../features/authenticator/authenticator-page')).AuthenticatorPage,
    ),
  },
  guarded('registration', [
    {
      path: routes.newUser,
      ...page(
        'New User Registration',
        async () => (await import('../features/registration/new-user-page')).NewUserPage,
      ),
    },
  ]),
  guarded('login', [
    {
      path: routes.welcome,
      ...page('Welcome', async () => (await import('../features/welcome/welcome-page')).WelcomePage),
    },
  ]),
  guarded('attest', [
    {
      path: routes.attest,
      ...page(
        'Acceptable Use Policy',
        async () => (await import('../features/policy-attestation/attest-page')).AttestPage,
      ),
    },
  ]),
  guarded('vendor', [
    {
      path: routes.profile,
      ...page('Manage Profile', async () => (await import('../features/profile/profile-page')).ProfilePage),
    },
    {
      path: routes.confirmAccess,
      ...page(
        'Confirm your access',
        async () => (await import('../features/access-reviews/confirm-access-page')).ConfirmAccessPage,
      ),
    },
    {
      path: routes.requestAccess,
      ...page(
        'Manage Access',
        async () => (await import('../features/access/request-access-page')).RequestAccessPage,
      ),
    },
  ]),
  guarded('brm', [
    {
      path: routes.accessReviews,
      ...page(
        'Access Reviews',
        async () => (await import('../features/access-reviews/access-reviews-page')).AccessReviewsPage,
      ),
    },
    {
      path: routes.pendingApprovals,
      ...page(
        'Approvals and Provisioning',
        async () => (await import('../features/approvals/pending-approvals-page')).PendingApprovalsPage,
      ),
    },
    {
      path: routes.manageUsers,
      ...page(
        'Manage Users',
        async () => (await import('../features/manage-users/manage-users-page')).ManageUsersPage,
      ),
    },
  ]),
  guarded('employeeBrm', [
    {
      path: routingRoutes.away,
      ...page(
        'Away and Backup',
        async () => (await import('../features/approval-routing/away-page')).AwayPage,
      ),
    },
    {
      path: routes.terminateVendors,
      ...page(
        'Terminate Vendors',
        async () =>
          (await import('../features/terminate-vendors/terminate-vendors-page')).TerminateVendorsPage,
      ),
    },
  ]),
  guarded('reports', [
    {
      path: adminRoutes.root,
      title: 'Administration',
      ...lazyRoute(async () => (await import('../features/administration/admin-layout')).AdminHome),
    },
    {
      ...lazyRoute(async () => (await import('../features/administration/admin-layout')).AdminLayout),
      children: [...reportPages, guarded('admin', adminPages)],
    },
  ]),
  { path: '*', element: <NotFoundPage />, title: 'Page Not Found' },
];

/** The spec's route table (section 2). */
export const appRoutes: Route[] = [
  {
    element: <RootShell />,
    errorElement: <StandaloneErrorPage />,
    children: [
      { path: routes.root, element: <RootRedirect /> },
      { path: routes.home, element: <HomePage />, title: 'Home' },
      { path: routes.fakeSp, element: <FakeSpPage />, title: 'Test Service Provider' },
      {
        ...lazyRoute(async () => (await import('./layout/main-layout')).MainLayout),
        // Errors inside a page keep the navigation around them.
        children: [{ errorElement: <ErrorPage />, children: routesInSharedLayout }],
      },
    ],
  },
];
