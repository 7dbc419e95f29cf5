import { HOSPITAL_NAME, PORTAL_NAME, siteLinks } from '../lib/site-links';

const links = [
  { label: 'Disclaimer', href: siteLinks.disclaimer },
  { label: 'Privacy Notice', href: siteLinks.privacyNotice },
  { label: 'Website Privacy Policy', href: siteLinks.websitePrivacyPolicy },
];

/** Footer with the legal pages (each in a new tab) and the copyright line. */
export function SiteFooter() {
  return (
    <footer className="site-footer mt-auto py-3">
      <div className="container d-flex flex-column flex-md-row gap-2 justify-content-between">
        <ul className="list-inline mb-0">
          {links.map(({ label, href }) => (
            <li key={label} className="list-inline-item me-3">
              <a href={href} target="_blank" rel="noopener noreferrer">
                {label}
              </a>
            </li>
          ))}
        </ul>
        <p className="mb-0">
          Copyright © 2025 {HOSPITAL_NAME} · {PORTAL_NAME}
        </p>
      </div>
    </footer>
  );
}
