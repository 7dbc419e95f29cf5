/** The 250x80 PRA Portal wordmark. Its alt text names the portal, which also names the link around it. */
export function BrandLogo() {
  return <img src="/logo.svg" width={250} height={80} alt="PRA Portal" className="brand-logo" />;
}
