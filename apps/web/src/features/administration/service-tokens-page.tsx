import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { useQuery } from '@tanstack/react-query';
import {
  TOKEN_NAME_MAX,
  tokenScopeDescriptions,
  tokenScopeFamilies,
  type ServiceTokenView,
  type TokenScope,
  type TokenStatus,
} from '@pra/contracts/service-tokens';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { adminKeys, useAdminAction } from './use-admin-action';

const DAY_MS = 24 * 3600_000;

/** A date field's value (YYYY-MM-DD, local) `days` from today. */
function dateIn(days: number): string {
  const date = new Date(Date.now() + days * DAY_MS);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const statusText: Record<TokenStatus, string> = {
  active: 'Active',
  revoked: 'Revoked',
  expired: 'Expired',
  ownerInactive: 'Not working: its admin is no longer an active admin',
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** Service tokens: API access for automation, made, listed and revoked by admins. */
export function ServiceTokensPage() {
  const { data } = useQuery({
    queryKey: adminKeys.serviceTokens,
    queryFn: ({ signal }) => callEndpoint(admin.listServiceTokens, { signal }),
    meta: { alertOnError: true },
  });
  const [revoking, setRevoking] = useState<ServiceTokenView>();
  const revoke = useAdminAction(
    (token: ServiceTokenView) => callEndpoint(admin.revokeServiceToken, { params: { id: token.id } }),
    { success: (token) => `${token.name} revoked.`, refresh: [adminKeys.serviceTokens] },
  );
  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading" className="h4">
        Service tokens
      </h2>
      <p>
        A service token lets automation call the admin and BRM API without a browser, sent as{' '}
        <code>Authorization: Bearer …</code>. It acts as you, within the scopes you choose, until it expires
        or is revoked, and stops working if you are no longer an admin. The token is shown once, when it is
        made.
      </p>
      <CreateTokenForm />
      <h3 className="h5 mt-4">Tokens</h3>
      {data?.tokens.length === 0 ? (
        <p>No service tokens yet.</p>
      ) : (
        <Table responsive hover size="sm" className="table-stacked-phone">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.tokens.map((token) => (
              <tr key={token.id}>
                <td data-label="Name" className="text-break">
                  {token.name}
                  {token.owner !== token.createdBy && (
                    <div className="small text-body-secondary">acts as {token.owner}</div>
                  )}
                </td>
                <td data-label="Scopes">{token.scopes.join(', ')}</td>
                <td data-label="Created">
                  {when(token.createdAt)}
                  <div className="small text-body-secondary">by {token.createdBy}</div>
                </td>
                <td data-label="Expires">{when(token.expiresAt)}</td>
                <td data-label="Last used">{when(token.lastUsedAt)}</td>
                <td data-label="Status">
                  {statusText[token.status]}
                  {token.revokedBy && (
                    <div className="small text-body-secondary">
                      by {token.revokedBy}, {when(token.revokedAt)}
                    </div>
                  )}
                </td>
                <td>
                  {token.status !== 'revoked' && (
                    <Button
                      size="sm"
                      variant="outline-danger"
                      onClick={() => setRevoking(token)}
                      aria-label={`Revoke ${token.name}`}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Modal
        show={revoking !== undefined}
        onHide={() => setRevoking(undefined)}
        centered
        aria-labelledby="revoke-title"
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="revoke-title" as="h2" className="h5">
            Revoke {revoking?.name}?
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-0">
            It stops working at once: automation using it gets 401 on its next call. This cannot be undone;
            make a new token if it is needed again.
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setRevoking(undefined)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              if (revoking) revoke.mutate(revoking);
              setRevoking(undefined);
            }}
          >
            Revoke token
          </Button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}

const families: [string, readonly TokenScope[]][] = [
  ['Administration', tokenScopeFamilies.admin],
  ['BRM work', tokenScopeFamilies.brm],
];

function CreateTokenForm() {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>([]);
  const [expires, setExpires] = useState(() => dateIn(90));
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const create = useAdminAction(
    (body: { name: string; scopes: TokenScope[]; expiresAt: string }) =>
      callEndpoint(admin.createServiceToken, { body }),
    { success: (body) => `${body.name} created.`, refresh: [adminKeys.serviceTokens] },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name, scopes, expiresAt: new Date(`${expires}T23:59:59`).toISOString() };
    create.mutate(body, {
      onSuccess: (answer) => {
        setCreated({ name: body.name, token: answer.token });
        setName('');
        setScopes([]);
      },
    });
  };
  return (
    <>
      {created && <NewToken {...created} onDone={() => setCreated(undefined)} />}
      <Form onSubmit={submit} aria-label="Create a service token" className="row g-2">
        <Form.Group className="col-12 col-md-6" controlId="token-name">
          <Form.Label>Token name</Form.Label>
          <Form.Control
            required
            maxLength={TOKEN_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-describedby="token-name-help"
          />
          <Form.Text id="token-name-help">What uses it, e.g. “nightly HR sync”.</Form.Text>
        </Form.Group>
        <Form.Group className="col-12 col-md-6" controlId="token-expires">
          <Form.Label>Expires at the end of</Form.Label>
          <Form.Control
            type="date"
            required
            min={dateIn(1)}
            max={dateIn(365)}
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
        </Form.Group>
        {families.map(([legend, list]) => (
          <fieldset key={legend} className="col-12 col-lg-6">
            <legend className="form-label fs-6">Scopes: {legend}</legend>
            {list.map((scope) => (
              <Form.Check
                key={scope}
                id={`scope-${scope}`}
                label={
                  <>
                    <code>{scope}</code> {tokenScopeDescriptions[scope]}
                  </>
                }
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))
                }
              />
            ))}
          </fieldset>
        ))}
        <div className="col-12">
          <Button type="submit" disabled={create.isPending || scopes.length === 0}>
            Create token
          </Button>
          {scopes.length === 0 && (
            <span className="ms-2 small text-body-secondary">Choose at least one scope.</span>
          )}
        </div>
      </Form>
    </>
  );
}

/** The token just made: shown this once, with a copy button, until the admin is done. */
function NewToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  useEffect(() => heading.current?.focus(), []);
  const copy = () =>
    navigator.clipboard.writeText(token).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <Alert variant="warning" className="mb-3">
      <h3 ref={heading} tabIndex={-1} className="h5">
        Copy the token for {name} now
      </h3>
      <p>It is shown only this once: the portal keeps no copy. Store it in your automation’s secret store.</p>
      <Form.Group controlId="new-token" className="mb-2">
        <Form.Label>New service token</Form.Label>
        <Form.Control readOnly value={token} className="font-monospace" onFocus={(e) => e.target.select()} />
      </Form.Group>
      <div className="d-flex gap-2 align-items-center">
        <Button onClick={() => void copy()}>Copy token</Button>
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
        <span role="status" className="small">
          {copied === 'yes'
            ? 'Copied.'
            : copied === 'failed'
              ? 'Could not copy: select the token and copy it.'
              : ''}
        </span>
      </div>
    </Alert>
  );
}
