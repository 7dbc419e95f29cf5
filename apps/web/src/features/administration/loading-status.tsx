import Spinner from 'react-bootstrap/Spinner';

/** What an admin list shows until its first page arrives (e.g. 'Loading organizations…'). */
export function LoadingStatus({ text }: { text: string }) {
  return (
    <p role="status">
      <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
      {text}
    </p>
  );
}
