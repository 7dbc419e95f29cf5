import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { adminRoutes, routes } from '@pra/contracts';
import { AuthFailurePage } from '../features/auth-failure/auth-failure-page';
import { FakeSpPage } from '../features/fake-sp/fake-sp-page';
import { HomePage } from '../features/home/home-page';
import { StatusCheckPage } from '../features/status-check/status-check-page';
import { ErrorPage, NotFoundPage, StandaloneErrorPage } from './error-page';
import { RequireAccess } from './guards/require-access';
import { RootRedirect } from './guards/root-redirect';
import type { RouteHandle } from './route-title';
import { RootShell } from './root-shell';

// The Administration sections, each its own chunk: [path, title, component loader].
const adminPages: [string, string, () => Promise<ComponentType>][] = [
  [
    adminRoutes.organizations,
    'Organizations',
    async () => (await import('../features/administration/organizations-page')).OrganizationsPage,
  ],
  [
    adminRoutes.people,
    'People',
    async () => (await import('../features/administration/people-page')).PeoplePage,
  ],
  [
    adminRoutes.systemMessage,
    'System Message',
    async () => (await import('../features/administration/system-message-page')).SystemMessagePage,
  ],
  [
    adminRoutes.maintenance,
    'Maintenance',
    async () => (await import('../features/administration/maintenance-page')).MaintenancePage,
  ],
  [adminRoutes.mail, 'Mail', async () => (await import('../features/administration/mail-page')).MailPage],
  [
    adminRoutes.audit,
    'Audit Trail',
    async () => (await import('../features/administration/audit-page')).AuditPage,
  ],
];

function BlankFallback() {
  return null;
}

const titled = (title: string): RouteHandle => ({ title });

// Everything behind sign-in, and the larger public flows, load on demand so /home stays small.
const routesInSharedLayout: RouteObject[] = [
  { path: routes.authFailure, element: <AuthFailurePage />, handle: titled('Authentication Failure') },
  { path: routes.statusCheck, element: <StatusCheckPage />, handle: titled('Service Status') },
  {
    path: routes.activateAccount,
    handle: titled('Account Activation'),
    lazy: async () => ({
      Component: (await import('../features/activate-account/activate-account-page')).ActivateAccountPage,
    }),
  },
  {
    path: routes.forgotUserId,
    handle: titled('Forgot User ID'),
    lazy: async () => ({
      Component: (await import('../features/forgot-user-id/forgot-user-id-page')).ForgotUserIdPage,
    }),
  },
  {
    path: routes.forgotPassword,
    handle: titled('Forgot Password'),
    lazy: async () => ({
      Component: (await import('../features/forgot-password/forgot-password-page')).ForgotPasswordPage,
    }),
  },
  {
    element: <RequireAccess rule="registration" />,
    children: [
      {
        path: routes.newUser,
        handle: titled('New User Registration'),
        lazy: async () => ({ Component: (await import('../features/new-user/new-user-page')).NewUserPage }),
      },
    ],
  },
  {
    element: <RequireAccess rule="login" />,
    children: [
      {
        path: routes.welcome,
        handle: titled('Welcome'),
        lazy: async () => ({ Component: (await import('../features/welcome/welcome-page')).WelcomePage }),
      },
    ],
  },
  {
    element: <RequireAccess rule="vendor" />,
    children: [
      {
        path: routes.profile,
        handle: titled('Manage Profile'),
        lazy: async () => ({ Component: (await import('../features/profile/profile-page')).ProfilePage }),
      },
      {
        path: routes.requestAccess,
        handle: titled('Manage Access'),
        lazy: async () => ({
          Component: (await import('../features/request-access/request-access-page')).RequestAccessPage,
        }),
      },
    ],
  },
  {
    element: <RequireAccess rule="brm" />,
    children: [
      {
        path: routes.pendingApprovals,
        handle: titled('Approvals and Provisioning'),
        lazy: async () => ({
          Component: (await import('../features/pending-approvals/pending-approvals-page'))
            .PendingApprovalsPage,
        }),
      },
      {
        path: routes.manageUsers,
        handle: titled('Manage Users'),
        lazy: async () => ({
          Component: (await import('../features/manage-users/manage-users-page')).ManageUsersPage,
        }),
      },
    ],
  },
  {
    element: <RequireAccess rule="employeeBrm" />,
    children: [
      {
        path: routes.terminateVendors,
        handle: titled('Terminate Vendors'),
        lazy: async () => ({
          Component: (await import('../features/terminate-vendors/terminate-vendors-page'))
            .TerminateVendorsPage,
        }),
      },
    ],
  },
  {
    element: <RequireAccess rule="admin" />,
    children: [
      {
        path: adminRoutes.root,
        handle: titled('Administration'),
        lazy: async () => ({
          Component: (await import('../features/administration/admin-layout')).AdminLayout,
        }),
        children: [
          { index: true, element: <Navigate to={adminRoutes.organizations} replace /> },
          ...adminPages.map(([path, title, load]) => ({
            path,
            handle: titled(title),
            lazy: async () => ({ Component: await load() }),
          })),
        ],
      },
    ],
  },
  { path: '*', element: <NotFoundPage />, handle: titled('Page Not Found') },
];

/** The spec's route table (section 2). */
export const appRoutes: RouteObject[] = [
  {
    path: routes.root,
    element: <RootShell />,
    errorElement: <StandaloneErrorPage />,
    // While the first lazy route loads, render nothing (the app is blank until it can show a page).
    HydrateFallback: BlankFallback,
    children: [
      { index: true, element: <RootRedirect /> },
      { path: routes.home, element: <HomePage />, handle: titled('Home') },
      { path: routes.fakeSp, element: <FakeSpPage />, handle: titled('Test Service Provider') },
      {
        lazy: async () => ({ Component: (await import('./layout/main-layout')).MainLayout }),
        // Errors inside a page keep the navigation around them.
        children: [{ errorElement: <ErrorPage />, children: routesInSharedLayout }],
      },
    ],
  },
];
