import Form from 'react-bootstrap/Form';
import type { AccountSummary } from '@pra/contracts';

/** An account's username, first name, last name and email, read-only (activation and recovery). */
export function AccountFields({ account, idPrefix }: { account: AccountSummary; idPrefix: string }) {
  const fields: [string, string][] = [
    ['Username', account.username],
    ['First Name', account.givenName],
    ['Last Name', account.familyName],
    ['Email', account.email],
  ];
  return (
    <>
      {fields.map(([label, value]) => (
        <Form.Group
          key={label}
          className="row mb-2"
          controlId={`${idPrefix}-${label.replace(' ', '-').toLowerCase()}`}
        >
          <Form.Label column sm={3}>
            {label}
          </Form.Label>
          <div className="col-sm-9">
            <Form.Control plaintext readOnly value={value} />
          </div>
        </Form.Group>
      ))}
    </>
  );
}
