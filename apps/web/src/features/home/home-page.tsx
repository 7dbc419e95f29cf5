import { Link } from '../../lib/routing/router';
import { loginUrl, routes } from '@pra/contracts/paths';
import { SiteFooter } from '../../components/site-footer';
import { siteLinks } from '../../lib/site-links';
import { SystemMessageBanner } from '../../components/system-message-banner';
import { BrandLogo } from '../../components/brand-logo';

/** The public landing page, in its own layout (no top navigation). */
export function HomePage() {
  return (
    <>
      <header className="bg-white border-bottom">
        <div className="container py-2">
          <BrandLogo />
        </div>
      </header>
      <main className="container py-5 flex-grow-1" tabIndex={-1}>
        <SystemMessageBanner />
        <div className="home-intro">
          <h1 className="page-title">Welcome to the PRA Portal</h1>
          <p className="lead">
            The Privileged Remote Access portal is where the hospital&apos;s vendors manage the accounts they
            use to support our clinical systems remotely.
          </p>
          <p>
            Log in to manage your profile and access. New to the portal? Register, and once your request is
            approved, activate your account with the code we email you.
          </p>
          <p className="my-4">
            <a className="btn btn-primary btn-lg" href={loginUrl(routes.welcome)}>
              Login
            </a>
          </p>
          <ul className="home-links list-unstyled">
            <li>
              <Link to={routes.newUser}>Register New User</Link>
            </li>
            <li>
              <Link to={routes.activateAccount}>Activate Account</Link>
            </li>
            <li>
              <Link to={routes.forgotUserId}>Forgot User ID</Link>
            </li>
            <li>
              <Link to={routes.forgotPassword}>Forgot Password</Link>
            </li>
            <li>
              <a href={siteLinks.supportMail}>Contact Us</a>
            </li>
          </ul>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
