import { BrandLogo } from '../../components/brand-logo';

/** /fakesp, in its own layout: the test service provider only exists in test setups. */
export function FakeSpPage() {
  return (
    <>
      <header className="bg-white border-bottom">
        <div className="container py-2">
          <BrandLogo />
        </div>
      </header>
      <main className="container py-5 flex-grow-1" tabIndex={-1}>
        <h1 className="page-title">Test Service Provider</h1>
        <p>The test service provider is not enabled in this environment.</p>
      </main>
    </>
  );
}
