import { useIsLoading } from '../lib/loading';

/** Global overlay while the loading flag is set; CSS fades it in and out over 500 ms. */
export function LoadingOverlay() {
  const isLoading = useIsLoading();
  return (
    <div className={`loading-overlay${isLoading ? ' is-visible' : ''}`} aria-hidden={!isLoading}>
      {/* role=status lets screen readers hear that work is in progress. */}
      <div role="status">
        <img src="/loading.svg" width={96} height={96} alt={isLoading ? 'Loading…' : ''} />
      </div>
    </div>
  );
}
