import { useEffect, useId, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import type { AvailableRole, CurrentRole } from '@pra/contracts';
import { accessMessages } from '@pra/contracts/access';
import { DataTable } from '../data-table/data-table';
import { useDataTable, type DataColumn } from '../data-table/use-data-table';
import { CrossIcon, PlusIcon } from '../icons';
import { CurrentAccessModal } from './current-access-modal';
import { EndDateDialog } from './end-date-dialog';
import { DepartureReportLinks, EmergencyAccessButton } from './emergency-dialogs';
import { PendingAccessModal } from './pending-access-modal';
import { ReasonField, reasonError } from './reason-field';
import {
  useAvailableRoles,
  useCurrentAccess,
  usePendingAccess,
  useRequestRoles,
  type AccessSubject,
} from './use-access';
import './manage-access.css';

/** Spec section 9: available roles page size. */
const ROLES_PAGE_SIZE = 10;
const noRoles: AvailableRole[] = [];

export interface ManageAccessProps extends AccessSubject {
  /** Admins may list every active organization's role ('Show all available roles'). */
  canShowAll: boolean;
  /** Called by Cancel after the form is cleared (the modal closes itself here). */
  onCancel?: () => void;
  /** A role name whose end-date dialog opens at once (the welcome alert's "Request extension"). */
  extendRole?: string | undefined;
}

/**
 * Where the keyboard focus goes once the page has redrawn after an action that removed the focused
 * control: a `data-focus-key` (the next Add or Remove button), the Selected Roles heading, or the
 * count that shows the result of Submit. Without it focus fell to the page body.
 */
type FocusTarget = { key: string } | 'selected' | 'result';

/** The same kind of button after the one used (the one before it for the last). */
function neighbourOf(button: HTMLElement): FocusTarget {
  const key = button.dataset.focusKey ?? '';
  const kind = key.slice(0, key.indexOf(':') + 1);
  const root = button.closest('.manage-access');
  const keys = [...(root?.querySelectorAll<HTMLElement>('[data-focus-key]') ?? [])]
    .map((element) => element.dataset.focusKey ?? '')
    .filter((candidate) => candidate.startsWith(kind));
  const index = keys.indexOf(key);
  const next = index < 0 ? undefined : (keys[index + 1] ?? keys[index - 1]);
  return next ? { key: next } : 'selected';
}

function roleColumns(onAdd: (role: AvailableRole, button: HTMLElement) => void): DataColumn<AvailableRole>[] {
  return [
    {
      key: 'name',
      header: 'Role Name',
      sortValue: (role) => role.displayableName,
      render: (role) => role.displayableName,
    },
    {
      key: 'add',
      header: 'Add',
      className: 'text-end manage-access-add-col',
      render: (role) => (
        <Button
          variant="outline-primary"
          size="sm"
          aria-label={`Add ${role.displayableName}`}
          data-focus-key={`add:${role.name}`}
          onClick={(event) => onAdd(role, event.currentTarget)}
        >
          <PlusIcon />
        </Button>
      ),
    },
  ];
}

/**
 * Manage Access: current and pending access, the roles that may be added, the selection and its
 * justification. A vendor's own changes become requests for the BRMs; a BRM or admin managing
 * another user (`isManager`) changes the roles at once. Used by /vendor/request-access and, as a
 * modal, by Manage Users.
 */
export function ManageAccess({
  username,
  email,
  isManager,
  canShowAll,
  onCancel,
  extendRole,
}: ManageAccessProps) {
  const id = useId();
  const subject = { username, email, isManager };
  const [showAll, setShowAll] = useState(false);
  const [selected, setSelected] = useState<AvailableRole[]>([]);
  const [justification, setJustification] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const [openModal, setOpenModal] = useState<'current' | 'pending' | 'endDate'>();
  // The role of the end-date dialog (kept while it fades out).
  const [endRole, setEndRole] = useState<CurrentRole>();
  const [endFrom, setEndFrom] = useState<'current' | 'link'>('current');
  // A new object per request, so asking for the same place twice moves the focus twice.
  const [focusRequest, setFocusRequest] = useState<{ target: FocusTarget }>();
  const rootRef = useRef<HTMLDivElement>(null);
  const selectedHeadingRef = useRef<HTMLHeadingElement>(null);
  const currentButtonRef = useRef<HTMLButtonElement>(null);
  const pendingButtonRef = useRef<HTMLButtonElement>(null);
  const current = useCurrentAccess(username);
  const pending = usePendingAccess(username);
  const available = useAvailableRoles(username, canShowAll && showAll);
  // The welcome alert's link opens the dialog of its role once the current access is known.
  const [openedFor, setOpenedFor] = useState<string>();
  const linked = extendRole ? current.data?.find((role) => role.name === extendRole) : undefined;
  if (linked && openedFor !== extendRole) {
    setOpenedFor(extendRole);
    setEndRole(linked);
    setEndFrom('link');
    setOpenModal('endDate');
  }

  const clear = () => {
    setSelected([]);
    setJustification('');
    setIsTouched(false);
  };
  const submit = useRequestRoles(subject, () => {
    setFocusRequest({ target: 'result' });
    clear();
  });
  const chosen = new Set(selected.map((role) => role.name));
  const rows = (available.data ?? noRoles).filter((role) => !chosen.has(role.name));
  const handleAdd = (role: AvailableRole, button: HTMLElement) => {
    setFocusRequest({ target: neighbourOf(button) });
    setSelected((list) => [...list, role]);
  };
  const handleRemove = (role: AvailableRole, button: HTMLElement) => {
    setFocusRequest({ target: neighbourOf(button) });
    setSelected((list) => list.filter((r) => r.name !== role.name));
  };
  const table = useDataTable({
    rows,
    columns: roleColumns(handleAdd),
    pageSize: ROLES_PAGE_SIZE,
    filterText: (role) => [role.displayableName],
    initialSort: { key: 'name', direction: 'asc' },
  });
  // Once the page has redrawn: move the focus where the action asked (see FocusTarget).
  useEffect(() => {
    const target = focusRequest?.target;
    if (!target) return;
    const byKey = (key: string) =>
      [...(rootRef.current?.querySelectorAll<HTMLElement>('[data-focus-key]') ?? [])].find(
        (element) => element.dataset.focusKey === key,
      );
    if (target === 'result') (isManager ? currentButtonRef : pendingButtonRef).current?.focus();
    else if (target === 'selected') selectedHeadingRef.current?.focus();
    else (byKey(target.key) ?? selectedHeadingRef.current)?.focus();
  }, [focusRequest, isManager]);

  const canSubmit = selected.length > 0 && !reasonError(justification) && !submit.isPending;
  const pendingCount = (pending.data ?? []).reduce((sum, request) => sum + request.items.length, 0);

  return (
    <div className="manage-access" ref={rootRef}>
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Button variant="outline-primary" ref={currentButtonRef} onClick={() => setOpenModal('current')}>
          Current Access{' '}
          <Badge bg="primary" pill>
            {current.data?.length ?? 0}
          </Badge>
        </Button>
        <Button variant="outline-primary" ref={pendingButtonRef} onClick={() => setOpenModal('pending')}>
          Pending Access{' '}
          <Badge bg="primary" pill>
            {pendingCount}
          </Badge>
        </Button>
        {isManager && canShowAll && <EmergencyAccessButton username={username} />}
      </div>
      {!isManager && <DepartureReportLinks roles={current.data ?? []} />}
      <Row className="g-4">
        <Col lg={7}>
          <h2 className="h5">Available Roles</h2>
          {canShowAll && (
            <Form.Check
              type="checkbox"
              id={`${id}-show-all`}
              className="mb-2"
              label="Show all available roles"
              checked={showAll}
              onChange={(event) => setShowAll(event.target.checked)}
            />
          )}
          {available.isPending ? (
            <p role="status">
              <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
              Loading available roles…
            </p>
          ) : (
            <DataTable
              table={table}
              caption="Available roles"
              filterLabel="Filter by name"
              emptyText={accessMessages.empty}
              getRowKey={(role) => role.name}
            />
          )}
          {selected.length > 0 && (
            // On a phone the selection is below the whole table: one step takes the keyboard there.
            <Button
              variant="link"
              className="d-lg-none p-0"
              onClick={() => {
                selectedHeadingRef.current?.scrollIntoView({ block: 'start' });
                selectedHeadingRef.current?.focus();
              }}
            >
              Go to Selected Roles ({selected.length})
            </Button>
          )}
        </Col>
        <Col lg={5}>
          <Form
            noValidate
            aria-labelledby={`${id}-selected`}
            onSubmit={(event) => {
              event.preventDefault();
              setIsTouched(true);
              if (canSubmit) submit.mutate({ roles: selected, justification: justification.trim() });
            }}
          >
            <h2 className="h5" id={`${id}-selected`} ref={selectedHeadingRef} tabIndex={-1}>
              Selected Roles
            </h2>
            {selected.length === 0 ? (
              <p className="text-body-secondary">No roles selected. Add roles from the list.</p>
            ) : (
              <ul className="list-group mb-3">
                {selected.map((role) => (
                  <li
                    key={role.name}
                    className="list-group-item d-flex justify-content-between align-items-center gap-2"
                  >
                    {role.displayableName}
                    <Button
                      variant="outline-secondary"
                      size="sm"
                      aria-label={`Remove ${role.displayableName} from the selection`}
                      data-focus-key={`remove:${role.name}`}
                      onClick={(event) => handleRemove(role, event.currentTarget)}
                    >
                      <CrossIcon />
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <ReasonField
              label="Justification"
              value={justification}
              onChange={setJustification}
              isTouched={isTouched}
            />
            <div className="d-flex gap-2 justify-content-end">
              <Button
                variant="secondary"
                onClick={() => {
                  clear();
                  onCancel?.();
                }}
              >
                Cancel
              </Button>
              <Button type="submit" variant="primary" disabled={!canSubmit}>
                Submit
              </Button>
            </div>
          </Form>
        </Col>
      </Row>
      <CurrentAccessModal
        subject={subject}
        show={openModal === 'current'}
        onClose={() => setOpenModal(undefined)}
        onEndDate={(role) => {
          setEndRole(role);
          setEndFrom('current');
          setOpenModal('endDate');
        }}
      />
      <EndDateDialog
        subject={subject}
        role={endRole}
        show={openModal === 'endDate'}
        onClose={() => setOpenModal(endFrom === 'link' ? undefined : 'current')}
      />
      <PendingAccessModal
        subject={subject}
        show={openModal === 'pending'}
        onClose={() => setOpenModal(undefined)}
      />
    </div>
  );
}
