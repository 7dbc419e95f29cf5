import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AvailableRole, CurrentRole } from '@pra/contracts';
import {
  departureReportBody,
  departureReportMessages,
  EMERGENCY_MAX_HOURS,
  emergencyAccessBody,
  emergencyMessages,
} from '@pra/contracts/emergencies';
import { fieldError } from '@pra/contracts/text-fields';
import * as calls from '@pra/contracts/endpoints/access';
import { callEndpoint } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';
import { queryKeys } from '../../lib/query-keys';
import { useCurrentUser } from '../../lib/use-current-user';
import { todayOf } from './access-dates';
import { useAvailableRoles } from './use-access';

// GOVERNANCE.md §10: an admin's "Grant emergency access" (Manage Users → Manage Access) and a
// vendor's "Report a colleague who left {Org}" (Manage Access). Both send at once and toast.

const hoursRule = emergencyAccessBody.shape.hours;
const ticketRule = emergencyAccessBody.shape.ticket;
const reasonRule = emergencyAccessBody.shape.reason;
const noteRule = departureReportBody.shape.note;
const colleagueRule = departureReportBody.shape.colleague;

interface FieldProps {
  id: string;
  label: string;
  error: string | undefined;
  children: (describedBy: string | undefined) => React.ReactNode;
  help?: string;
}

/** A labelled field with its error and help text tied to the control. */
function Field({ id, label, error, help, children }: FieldProps) {
  const describedBy = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {children(describedBy || undefined)}
      <Form.Control.Feedback type="invalid" id={`${id}-error`}>
        {error}
      </Form.Control.Feedback>
      {help && <Form.Text id={`${id}-help`}>{help}</Form.Text>}
    </Form.Group>
  );
}

/** A two-line text field of one of the dialogs (the reason, the note), judged by `error`. */
function TextAreaField(props: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      {(describedBy) => (
        <Form.Control
          as="textarea"
          rows={2}
          value={props.value}
          maxLength={255}
          isInvalid={Boolean(props.error)}
          aria-describedby={describedBy}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/** Cancel and the dialog's own action. */
function DialogFooter(props: {
  onCancel: () => void;
  action: string;
  variant: 'danger' | 'primary';
  isPending: boolean;
}) {
  return (
    <Modal.Footer>
      <Button variant="secondary" onClick={props.onCancel}>
        Cancel
      </Button>
      <Button type="submit" variant={props.variant} disabled={props.isPending}>
        {props.action}
      </Button>
    </Modal.Footer>
  );
}

/** The admin's emergency grant for `username`, of one of `roles` (every active organization). */
export function EmergencyAccessDialog(props: {
  show: boolean;
  username: string;
  roles: AvailableRole[];
  onClose: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [hours, setHours] = useState(String(EMERGENCY_MAX_HOURS));
  const [ticket, setTicket] = useState('');
  const [reason, setReason] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const reset = () => {
    setName('');
    setHours(String(EMERGENCY_MAX_HOURS));
    setTicket('');
    setReason('');
    setIsTouched(false);
  };
  const grant = useMutation({
    mutationFn: () =>
      withLoading(() =>
        callEndpoint(calls.grantEmergencyAccess, {
          body: {
            targetUsername: props.username,
            name,
            hours: Number(hours),
            ticket: ticket.trim(),
            reason: reason.trim(),
          },
        }),
      ),
    onSuccess: async (result) => {
      const org = props.roles.find((r) => r.name === name)?.displayableName ?? '';
      showAlert(emergencyMessages.granted(org, result.endsAtText), 'success');
      props.onClose();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.access(props.username) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.pendingApprovals }),
      ]);
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
  const hoursNumber = hours.trim() === '' ? Number.NaN : Number(hours);
  const errors = {
    name: name ? undefined : 'Select an organization',
    hours:
      fieldError(hoursRule, hoursNumber) || hoursNumber > EMERGENCY_MAX_HOURS
        ? emergencyMessages.hours(EMERGENCY_MAX_HOURS)
        : undefined,
    ticket: fieldError(ticketRule, ticket),
    reason: fieldError(reasonRule, reason),
  };
  const shown = (key: keyof typeof errors, value: string) =>
    isTouched || value.length > 0 ? errors[key] : undefined;
  const hasError = Object.values(errors).some(Boolean);
  return (
    <Modal show={props.show} onHide={props.onClose} onExited={reset} aria-labelledby={`${id}-title`} centered>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setIsTouched(true);
          if (!hasError && !grant.isPending) grant.mutate();
        }}
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {emergencyMessages.title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            Access for {props.username} ends by itself after the hours you set; the organization&apos;s BRMs
            are asked to acknowledge it.
          </p>
          <Field id={`${id}-org`} label="Organization" error={shown('name', name)}>
            {(describedBy) => (
              <Form.Select
                value={name}
                required
                isInvalid={Boolean(shown('name', name))}
                aria-describedby={describedBy}
                onChange={(event) => setName(event.target.value)}
              >
                <option value="">Choose…</option>
                {props.roles.map((role) => (
                  <option key={role.name} value={role.name}>
                    {role.displayableName}
                  </option>
                ))}
              </Form.Select>
            )}
          </Field>
          <Field
            id={`${id}-hours`}
            label="Hours"
            error={shown('hours', hours)}
            help={`1 to ${EMERGENCY_MAX_HOURS}`}
          >
            {(describedBy) => (
              <Form.Control
                type="number"
                inputMode="numeric"
                min={1}
                max={EMERGENCY_MAX_HOURS}
                step={1}
                value={hours}
                required
                isInvalid={Boolean(shown('hours', hours))}
                aria-describedby={describedBy}
                onChange={(event) => setHours(event.target.value)}
              />
            )}
          </Field>
          <Field id={`${id}-ticket`} label="Ticket number" error={shown('ticket', ticket)}>
            {(describedBy) => (
              <Form.Control
                value={ticket}
                required
                maxLength={64}
                isInvalid={Boolean(shown('ticket', ticket))}
                aria-describedby={describedBy}
                onChange={(event) => setTicket(event.target.value)}
              />
            )}
          </Field>
          <TextAreaField
            id={`${id}-reason`}
            label="Reason"
            value={reason}
            error={shown('reason', reason)}
            onChange={setReason}
          />
        </Modal.Body>
        <DialogFooter
          onCancel={props.onClose}
          action="Grant Emergency Access"
          variant="danger"
          isPending={grant.isPending}
        />
      </Form>
    </Modal>
  );
}

/** A vendor's report that a colleague of the role's organization left. */
export function DepartureReportDialog(props: {
  show: boolean;
  role: CurrentRole | undefined;
  onClose: () => void;
}) {
  const id = useId();
  const org = props.role?.display ?? '';
  const today = props.role ? todayOf(props.role) : '';
  const [colleague, setColleague] = useState('');
  const [leftOn, setLeftOn] = useState<string>();
  const [note, setNote] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const reset = () => {
    setColleague('');
    setLeftOn(undefined);
    setNote('');
    setIsTouched(false);
  };
  const date = leftOn ?? today;
  const send = useMutation({
    mutationFn: () =>
      withLoading(() =>
        callEndpoint(calls.reportDeparture, {
          body: {
            name: props.role?.name ?? '',
            colleague: colleague.trim(),
            leftOn: date,
            note: note.trim(),
          },
        }),
      ),
    onSuccess: (result) => {
      showAlert(result.message, 'success');
      props.onClose();
    },
    onError: (error) => showAlert(error.message, 'danger'),
  });
  const errors = {
    colleague: fieldError(colleagueRule, colleague),
    date: !date ? 'Enter a date' : today && date > today ? departureReportMessages.leftInFuture : undefined,
    note: fieldError(noteRule, note),
  };
  const hasError = Object.values(errors).some(Boolean);
  const shown = (key: keyof typeof errors, touched: boolean) =>
    isTouched || touched ? errors[key] : undefined;
  return (
    <Modal show={props.show} onHide={props.onClose} onExited={reset} aria-labelledby={`${id}-title`} centered>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setIsTouched(true);
          if (props.role && !hasError && !send.isPending) send.mutate();
        }}
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {departureReportMessages.title(org)}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            Tell {org}&apos;s sponsor that a colleague with access to {org} no longer works for your company.
          </p>
          <Field
            id={`${id}-colleague`}
            label="Colleague's email or username"
            error={shown('colleague', colleague.length > 0)}
          >
            {(describedBy) => (
              <Form.Control
                value={colleague}
                required
                maxLength={255}
                autoComplete="off"
                isInvalid={Boolean(shown('colleague', colleague.length > 0))}
                aria-describedby={describedBy}
                onChange={(event) => setColleague(event.target.value)}
              />
            )}
          </Field>
          <Field id={`${id}-date`} label="Date left" error={shown('date', leftOn !== undefined)}>
            {(describedBy) => (
              <Form.Control
                type="date"
                value={date}
                max={today || undefined}
                required
                isInvalid={Boolean(shown('date', leftOn !== undefined))}
                aria-describedby={describedBy}
                onChange={(event) => setLeftOn(event.target.value)}
              />
            )}
          </Field>
          <TextAreaField
            id={`${id}-note`}
            label="Note"
            value={note}
            error={shown('note', note.length > 0)}
            onChange={setNote}
          />
        </Modal.Body>
        <DialogFooter
          onCancel={props.onClose}
          action={departureReportMessages.send}
          variant="primary"
          isPending={send.isPending}
        />
      </Form>
    </Modal>
  );
}

/** "Grant emergency access" for admins: the dialog, with every active organization's role once opened. */
export function EmergencyAccessButton({ username }: { username: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const isAuditor = useCurrentUser().data?.isAuditor === true;
  // An auditor changes nothing (the server refuses it too).
  if (isAuditor) return null;
  return (
    <>
      <Button variant="outline-danger" onClick={() => setIsOpen(true)}>
        {emergencyMessages.title}
      </Button>
      {isOpen && <EmergencyAccessLoader username={username} onClose={() => setIsOpen(false)} />}
    </>
  );
}

function EmergencyAccessLoader({ username, onClose }: { username: string; onClose: () => void }) {
  const roles = useAvailableRoles(username, true);
  const [show, setShow] = useState(true);
  return (
    <EmergencyAccessDialog
      show={show}
      username={username}
      roles={roles.data ?? []}
      onClose={() => {
        setShow(false);
        // Unmount once the dialog has faded out.
        setTimeout(onClose, 350);
      }}
    />
  );
}

/** The vendor's links "Report a colleague who left {Org}", one per organization it holds, and their dialog. */
export function DepartureReportLinks({ roles }: { roles: CurrentRole[] }) {
  const [role, setRole] = useState<CurrentRole>();
  const [show, setShow] = useState(false);
  if (roles.length === 0) return null;
  return (
    <div className="mb-3 d-flex flex-column align-items-start">
      {roles.map((r) => (
        <Button
          key={r.name}
          variant="link"
          className="p-0 text-start"
          onClick={() => {
            setRole(r);
            setShow(true);
          }}
        >
          {departureReportMessages.link(r.display)}
        </Button>
      ))}
      <DepartureReportDialog show={show} role={role} onClose={() => setShow(false)} />
    </div>
  );
}
