import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { SecurityKeyList } from '@pra/contracts';
import { profileMessages, securityKeyMessages } from '@pra/contracts/plain-texts';
import { securityKeyPaths } from '@pra/contracts/paths';
import { securityKeyListBody } from '../../api/boot-parsers';
import { ApiError, call, callEndpoint } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import { runCeremony } from '../../lib/security-key-ceremony';
import { IncorrectPassword, reauthenticate } from './reauthenticate';
import { ScrollTable } from '../../components/scroll-table';

const queryKey = ['profile', 'security-keys'] as const;
/** The calls' definitions (and the schema library) load when someone acts, not with the page. */
const keyCalls = () => import('@pra/contracts/endpoints/security-keys');
const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium' });
const NICKNAME_MAX = 64;

type Key = SecurityKeyList['keys'][number];
type Dialog = { kind: 'add' } | { kind: 'rename'; key: Key } | { kind: 'remove'; key: Key } | undefined;

/** What a refused change says: a wrong password, the server's reason, or the browser's. */
function problemOf(error: unknown): string {
  if (error instanceof IncorrectPassword) return profileMessages.incorrect;
  if (error instanceof Error && !(error instanceof ApiError)) return error.message;
  return failureMessage(error, securityKeyMessages.unexpected);
}

/**
 * Profile → Sign-in methods (GOVERNANCE.md §7.3): the vendor's security keys and passkeys (when
 * added, last used, this device or synced), adding one after the current password (and, when an
 * organization requires keys, a confirmation with an existing key), renaming and removing one.
 */
export function SecurityKeysCard({ username }: { username: string }) {
  const id = useId();
  const list = useQuery({
    queryKey,
    queryFn: ({ signal }) => call(securityKeyListBody, { method: 'get', url: securityKeyPaths.keys, signal }),
    retry: false,
  });
  const [dialog, setDialog] = useState<Dialog>();
  const close = () => setDialog(undefined);
  const data = list.data;

  return (
    <Card>
      <Card.Body>
        <Card.Title as="h2" className="h5" id={`${id}-title`}>
          Sign-in methods
        </Card.Title>
        {list.isError && <Alert variant="danger">Your sign-in methods could not be loaded.</Alert>}
        {data && (
          <>
            {data.required && (
              <Alert variant="info">
                {data.requiredBy
                  ? securityKeyMessages.requiredBy(data.requiredBy)
                  : securityKeyMessages.required}
              </Alert>
            )}
            <h3 className="h6" id={`${id}-keys`}>
              Security keys and passkeys
            </h3>
            {data.keys.length === 0 ? (
              <p>You have no security key or passkey yet.</p>
            ) : (
              <ScrollTable label="Security keys and passkeys">
                <Table size="sm" aria-labelledby={`${id}-keys`} className="align-middle">
                  <thead>
                    <tr>
                      <th scope="col">Nickname</th>
                      <th scope="col">Added</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Type</th>
                      <th scope="col" className="d-none d-md-table-cell">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.keys.map((key) => (
                      <tr key={key.id}>
                        <td className="text-break">
                          {key.nickname}
                          {/* On a phone the actions sit under the nickname: five columns do not fit. */}
                          <div className="d-md-none mt-1">
                            <KeyActions
                              keyName={key.nickname}
                              onRename={() => setDialog({ kind: 'rename', key })}
                              onRemove={() => setDialog({ kind: 'remove', key })}
                            />
                          </div>
                        </td>
                        <td>{day(key.addedAt)}</td>
                        <td>{key.lastUsedAt ? day(key.lastUsedAt) : 'Never'}</td>
                        <td>{key.type === 'synced' ? 'Synced' : 'This device'}</td>
                        <td className="d-none d-md-table-cell">
                          <KeyActions
                            keyName={key.nickname}
                            onRename={() => setDialog({ kind: 'rename', key })}
                            onRemove={() => setDialog({ kind: 'remove', key })}
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </ScrollTable>
            )}
            {data.keys.length === 1 && <Alert variant="warning">{securityKeyMessages.addSecond}</Alert>}
            <Button
              onClick={() => setDialog({ kind: 'add' })}
              disabled={data.keys.length >= data.max}
              className="mb-3"
            >
              Add Security Key or Passkey
            </Button>
            {data.keys.length >= data.max && (
              <p className="small text-body-secondary">
                You have the most security keys an account can have.
              </p>
            )}
            <p className="mb-0">Authenticator app: {data.authenticatorApp ?? 'None'}</p>
          </>
        )}
      </Card.Body>
      {dialog?.kind === 'add' && data && (
        <AddKeyDialog username={username} needsKeyConfirmation={data.needsKeyConfirmation} onClose={close} />
      )}
      {dialog?.kind === 'rename' && <RenameKeyDialog keyToRename={dialog.key} onClose={close} />}
      {dialog?.kind === 'remove' && (
        <RemoveKeyDialog username={username} keyToRemove={dialog.key} onClose={close} />
      )}
    </Card>
  );
}

function KeyActions(props: { keyName: string; onRename: () => void; onRemove: () => void }) {
  return (
    <div className="d-flex flex-wrap gap-2 justify-content-md-end">
      <Button
        size="sm"
        variant="outline-secondary"
        aria-label={`Rename ${props.keyName}`}
        onClick={props.onRename}
      >
        Rename
      </Button>
      <Button
        size="sm"
        variant="outline-danger"
        aria-label={`Remove ${props.keyName}`}
        onClick={props.onRemove}
      >
        Remove
      </Button>
    </div>
  );
}

function useKeyChange(run: () => Promise<unknown>, done: string, onClose: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      showAlert(done, 'success');
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}

function KeyDialog(props: {
  title: string;
  submit: string;
  variant?: string;
  canSubmit: boolean;
  pending: boolean;
  error: unknown;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Modal show onHide={props.onClose} centered aria-labelledby={`${id}-title`}>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (props.canSubmit && !props.pending) props.onSubmit();
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id={`${id}-title`}>
            {props.title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {props.children}
          {props.error !== null && props.error !== undefined && (
            <Alert variant="danger" role="alert" className="mt-3 mb-0">
              {problemOf(props.error)}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={props.onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant={props.variant ?? 'primary'}
            disabled={!props.canSubmit || props.pending}
          >
            {props.submit}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

function NicknameField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  const trimmed = value.trim();
  const problem =
    trimmed.length === 0
      ? 'Required'
      : trimmed.length > NICKNAME_MAX
        ? `Max ${NICKNAME_MAX} characters`
        : undefined;
  return (
    <Form.Group className="mb-3" controlId={`${id}-nickname`}>
      <Form.Label>Nickname</Form.Label>
      <Form.Control
        value={value}
        maxLength={NICKNAME_MAX}
        autoComplete="off"
        isInvalid={problem !== undefined}
        aria-describedby={problem ? `${id}-nickname-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <Form.Control.Feedback type="invalid" id={`${id}-nickname-error`}>
        {problem}
      </Form.Control.Feedback>
    </Form.Group>
  );
}

function CurrentPasswordField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <Form.Group controlId={`${id}-password`}>
      <Form.Label>Current Password</Form.Label>
      <Form.Control
        type="password"
        autoComplete="current-password"
        value={value}
        required
        onChange={(event) => onChange(event.target.value)}
      />
    </Form.Group>
  );
}

const validNickname = (value: string) => value.trim().length > 0 && value.trim().length <= NICKNAME_MAX;

function AddKeyDialog(props: { username: string; needsKeyConfirmation: boolean; onClose: () => void }) {
  const [nickname, setNickname] = useState(() => `Security key added ${day(new Date().toISOString())}`);
  const [password, setPassword] = useState('');
  const add = useKeyChange(
    async () => {
      await reauthenticate(props.username, password);
      if (props.needsKeyConfirmation) {
        const { options } = await callEndpoint((await keyCalls()).securityKeyAssertionOptions);
        const credential = await runCeremony('get', options);
        await callEndpoint((await keyCalls()).confirmWithSecurityKey, { body: { credential } });
      }
      const { options } = await callEndpoint((await keyCalls()).securityKeyRegistrationOptions);
      const credential = await runCeremony('create', options);
      await callEndpoint((await keyCalls()).addSecurityKey, {
        body: { credential, nickname: nickname.trim() },
      });
    },
    `"${nickname.trim()}" can now sign you in.`,
    props.onClose,
  );
  return (
    <KeyDialog
      title="Add Security Key or Passkey"
      submit="Add Security Key or Passkey"
      canSubmit={validNickname(nickname) && password.length > 0}
      pending={add.isPending}
      error={add.error}
      onSubmit={() => add.mutate()}
      onClose={props.onClose}
    >
      <p>
        Name the key so you recognize it, confirm your current password, then follow your browser&apos;s
        prompt (touch the key, or use your fingerprint, face or PIN).
      </p>
      {props.needsKeyConfirmation && (
        <p>You will confirm with one of your security keys or passkeys first.</p>
      )}
      <NicknameField value={nickname} onChange={setNickname} />
      <CurrentPasswordField value={password} onChange={setPassword} />
    </KeyDialog>
  );
}

function RenameKeyDialog({ keyToRename, onClose }: { keyToRename: Key; onClose: () => void }) {
  const [nickname, setNickname] = useState(keyToRename.nickname);
  const rename = useKeyChange(
    async () =>
      callEndpoint((await keyCalls()).renameSecurityKey, {
        params: { id: keyToRename.id },
        body: { nickname: nickname.trim() },
      }),
    'Security key renamed',
    onClose,
  );
  return (
    <KeyDialog
      title={`Rename ${keyToRename.nickname}`}
      submit="Save"
      canSubmit={validNickname(nickname)}
      pending={rename.isPending}
      error={rename.error}
      onSubmit={() => rename.mutate()}
      onClose={onClose}
    >
      <NicknameField value={nickname} onChange={setNickname} />
    </KeyDialog>
  );
}

function RemoveKeyDialog(props: { username: string; keyToRemove: Key; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const remove = useKeyChange(
    async () => {
      await reauthenticate(props.username, password);
      await callEndpoint((await keyCalls()).removeSecurityKey, { params: { id: props.keyToRemove.id } });
    },
    'Security key removed',
    props.onClose,
  );
  return (
    <KeyDialog
      title={`Remove ${props.keyToRemove.nickname}`}
      submit="Remove"
      variant="danger"
      canSubmit={password.length > 0}
      pending={remove.isPending}
      error={remove.error}
      onSubmit={() => remove.mutate()}
      onClose={props.onClose}
    >
      <p>
        &quot;{props.keyToRemove.nickname}&quot; will no longer sign you in. We will email you about the
        change.
      </p>
      <CurrentPasswordField value={password} onChange={setPassword} />
    </KeyDialog>
  );
}
