import { Link, useRouteError } from '../lib/routing/router';
import { routes } from '@pra/contracts/paths';
import { BrandLogo } from '../components/brand-logo';
import { describeRouteError } from './route-error';

/** The heading and detail line of the general error page. */
function ErrorMessage({ detail }: { detail: string }) {
  return (
    <>
      <h1 className="page-title">Oops! Something Went Wrong</h1>
      <p>Sorry, an unexpected error has occurred.</p>
      <p>
        <em>{detail}</em>
      </p>
      <Link to={routes.root}>Return to the PRA Portal</Link>
    </>
  );
}

/** errorElement inside the shared layout (the layout's landmarks are already around it). */
export function ErrorPage() {
  return <ErrorMessage detail={describeRouteError(useRouteError())} />;
}

/** errorElement of the root route: the shared layout itself may be what failed, so bring landmarks. */
export function StandaloneErrorPage() {
  const detail = describeRouteError(useRouteError());
  return (
    <>
      <header className="border-bottom bg-white">
        <div className="container py-2">
          <a href={routes.root}>
            <BrandLogo />
          </a>
        </div>
      </header>
      <main className="container py-4 flex-grow-1" tabIndex={-1}>
        <ErrorMessage detail={detail} />
      </main>
    </>
  );
}

/** Unknown paths inside the shared layout. */
export function NotFoundPage() {
  return <ErrorMessage detail="404 Not Found" />;
}
