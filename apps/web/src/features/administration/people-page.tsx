import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQuery } from '@tanstack/react-query';
import type { AdminPerson, PersonBody, RoutingOverview } from '@pra/contracts';
import { routingMessages } from '@pra/contracts/approval-routing';
import { organizationList, peoplePage } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import { getRoutingOverview, setAssignmentKind } from '@pra/contracts/endpoints/approval-routing';
import { useCurrentUser } from '../../lib/use-current-user';
import { callEndpoint } from '../../api/client';
import { DataTable } from '../../components/data-table/data-table';
import { useServerTable } from '../../components/data-table/use-server-table';
import type { DataColumn } from '../../components/data-table/use-data-table';
import { LoadingStatus } from './loading-status';
import { RightsConfirmation, type RightsChange } from './rights-confirmation';
import { adminKeys, useAdminAction } from './use-admin-action';
import { TransferDialog } from './transfer-dialog';

const refresh = [adminKeys.people, adminKeys.organizationsAll, adminKeys.routing] as const;

/** Primary and backup BRMs per organization, and the organizations nobody can approve for. */
function useRouting() {
  return useQuery({
    queryKey: adminKeys.routing,
    queryFn: ({ signal }) => callEndpoint(getRoutingOverview, { signal }),
    meta: { alertOnError: true },
  }).data;
}

/** Auditors see People as it is and change nothing (the server refuses them too). */
function useReadOnly(): boolean {
  return useCurrentUser().data?.isAuditor === true;
}

function useOrganizationNames(): string[] {
  const { data } = useQuery({
    queryKey: adminKeys.organizations(''),
    queryFn: ({ signal }) => callEndpoint(admin.listOrganizations, { signal }, organizationList),
    meta: { alertOnError: true },
  });
  return data?.organizations.map((o) => o.name) ?? [];
}

/** Organizations as checkboxes; `idPrefix` keeps the ids unique on the page. */
function OrganizationChoices(props: {
  idPrefix: string;
  chosen: string[];
  onChange: (names: string[]) => void;
}) {
  const names = useOrganizationNames();
  return (
    <fieldset>
      <legend className="form-label fs-6">Organizations managed as BRM</legend>
      {names.map((name) => (
        <Form.Check
          key={name}
          id={`${props.idPrefix}-${name}`}
          label={name}
          checked={props.chosen.includes(name)}
          onChange={(e) =>
            props.onChange(
              e.target.checked ? [...props.chosen, name] : props.chosen.filter((n) => n !== name),
            )
          }
        />
      ))}
    </fieldset>
  );
}

/** The admin lists' page size (the server's default for them). */
const PAGE_SIZE = 25;

type PeopleSortKey = 'username' | 'givenName';

/** The columns of the People table; an auditor's controls are all disabled. */
function peopleColumns(routing: RoutingOverview | undefined, readOnly: boolean): DataColumn<AdminPerson>[] {
  return [
    { key: 'username', header: 'Username', sortValue: (p) => p.username, render: (p) => p.username },
    {
      key: 'givenName',
      header: 'Name and email',
      sortValue: (p) => p.givenName,
      render: (p) => <PersonDetails person={p} readOnly={readOnly} />,
    },
    { key: 'roles', header: 'Roles', render: (p) => <RolesCell person={p} readOnly={readOnly} /> },
    {
      key: 'organizations',
      header: 'Organizations',
      render: (p) => <OrganizationsCell person={p} routing={routing} readOnly={readOnly} />,
    },
    { key: 'actions', header: 'Actions', render: (p) => (readOnly ? null : <PersonActions person={p} />) },
  ];
}

/** People: hospital employees, their BRM and admin flags and managed organizations; one page at a time. */
export function PeoplePage() {
  const routing = useRouting();
  const readOnly = useReadOnly();
  const { table, isPending } = useServerTable({
    queryKey: adminKeys.peoplePages,
    columns: peopleColumns(routing, readOnly),
    pageSize: PAGE_SIZE,
    initialSort: { key: 'username', direction: 'asc' },
    fetchPage: (params, signal) =>
      callEndpoint(
        admin.listPeople,
        { query: { ...params, sort: params.sort as PeopleSortKey | undefined }, signal },
        peoplePage,
      ),
  });
  return (
    <section aria-labelledby="people-heading">
      <h2 id="people-heading" className="h4">
        People
      </h2>
      {routing && <UnreachableOrganizations routing={routing} />}
      {!readOnly && <AddPersonForm />}
      <div className="mt-3">
        {isPending ? (
          <LoadingStatus text="Loading people…" />
        ) : (
          <DataTable
            table={table}
            caption="People"
            filterLabel="Filter by username, name or email"
            emptyText="No person matches."
            getRowKey={(p) => p.id}
            stackOnPhone
          />
        )}
      </div>
    </section>
  );
}

const empty = {
  username: '',
  givenName: '',
  familyName: '',
  email: '',
  isEmployeeBrm: false,
  isAdmin: false,
};

function AddPersonForm() {
  const [person, setPerson] = useState(empty);
  const [organizations, setOrganizations] = useState<string[]>([]);
  const create = useAdminAction((body: PersonBody) => callEndpoint(admin.createPerson, { body }), {
    success: (body) => `${body.username} added.`,
    refresh,
  });
  const field = (key: 'username' | 'givenName' | 'familyName' | 'email', label: string, type = 'text') => (
    <Form.Group className="col-12 col-md-6 col-lg-3" controlId={`new-person-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        required
        value={person[key]}
        onChange={(e) => setPerson({ ...person, [key]: e.target.value })}
      />
    </Form.Group>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { ...person, organizations: person.isEmployeeBrm ? organizations : [] },
      { onSuccess: () => (setPerson(empty), setOrganizations([])) },
    );
  };
  return (
    <Form onSubmit={submit} aria-label="Add a person" className="row g-2">
      {field('username', 'Username (as at the IdP)')}
      {field('givenName', 'Given name')}
      {field('familyName', 'Family name')}
      {field('email', 'Email', 'email')}
      <div className="col-12 d-flex gap-3">
        <Form.Check
          id="new-person-brm"
          label="BRM"
          checked={person.isEmployeeBrm}
          onChange={(e) => setPerson({ ...person, isEmployeeBrm: e.target.checked })}
        />
        <Form.Check
          id="new-person-admin"
          label="Admin"
          checked={person.isAdmin}
          onChange={(e) => setPerson({ ...person, isAdmin: e.target.checked })}
        />
      </div>
      {person.isEmployeeBrm && (
        <div className="col-12">
          <OrganizationChoices idPrefix="new-person-org" chosen={organizations} onChange={setOrganizations} />
        </div>
      )}
      <div className="col-12">
        <Button type="submit" disabled={create.isPending}>
          Add person
        </Button>
      </div>
    </Form>
  );
}

/**
 * GOVERNANCE.md §5.2: the organizations whose requests no primary BRM can decide (none active, or
 * all away without a delegate); their requests go to backup BRMs and the Information Security team.
 */
function UnreachableOrganizations({ routing }: { routing: RoutingOverview }) {
  if (routing.unreachable.length === 0) return null;
  return (
    <Alert variant="warning" aria-labelledby="unreachable-heading">
      <h3 id="unreachable-heading" className="h6">
        {routingMessages.unreachableHeading}
      </h3>
      <p className="mb-1">
        No active primary BRM can decide their requests: they go to backup BRMs and the Information Security
        team at once. Make a BRM their primary approver.
      </p>
      <ul className="mb-0">
        {routing.unreachable.map((org) => (
          <li key={org.id}>{org.name}</li>
        ))}
      </ul>
    </Alert>
  );
}

/** Per organization a BRM manages: primary or backup approver (GOVERNANCE.md §5.2), changed at once. */
function ApproverKinds(props: {
  person: AdminPerson;
  routing: RoutingOverview | undefined;
  readOnly: boolean;
}) {
  const { person, routing, readOnly } = props;
  const setKind = useAdminAction(
    (input: { organizationId: string; organization: string; kind: 'primary' | 'backup' }) =>
      callEndpoint(setAssignmentKind, {
        params: { id: person.id, orgId: input.organizationId },
        body: { kind: input.kind },
      }),
    {
      success: (input) => `${person.username} is now ${input.kind} BRM of ${input.organization}.`,
      refresh,
    },
  );
  const mine = routing?.assignments.filter((a) => a.personId === person.id) ?? [];
  if (!person.isEmployeeBrm || mine.length === 0) return null;
  return (
    <ul className="list-unstyled mb-1">
      {mine.map((a) => (
        <li key={a.organizationId} className="d-flex flex-wrap align-items-center gap-1 mb-1">
          <span>{a.organization}</span>
          <Form.Select
            size="sm"
            className="w-auto"
            aria-label={`Approver for ${a.organization}: ${person.username}`}
            value={a.kind}
            disabled={readOnly || setKind.isPending}
            onChange={(e) =>
              setKind.mutate({
                organizationId: a.organizationId,
                organization: a.organization,
                kind: e.target.value as 'primary' | 'backup',
              })
            }
          >
            <option value="primary">Primary</option>
            <option value="backup">Backup</option>
          </Form.Select>
        </li>
      ))}
    </ul>
  );
}

/** The BRM, Admin and Auditor rights of a person, each changed once its effect is confirmed. */
function RolesCell({ person, readOnly }: { person: AdminPerson; readOnly: boolean }) {
  // A right changes only once the admin confirmed what it grants or removes.
  const [rightsChange, setRightsChange] = useState<RightsChange>();
  const change = useChangePerson(person);
  return (
    <>
      <Form.Check
        id={`brm-${person.id}`}
        label="BRM"
        checked={person.isEmployeeBrm}
        disabled={readOnly}
        onChange={(e) => setRightsChange({ right: 'isEmployeeBrm', grant: e.target.checked })}
      />
      <Form.Check
        id={`admin-${person.id}`}
        label="Admin"
        checked={person.isAdmin}
        disabled={readOnly}
        onChange={(e) => setRightsChange({ right: 'isAdmin', grant: e.target.checked })}
      />
      <Form.Check
        id={`auditor-${person.id}`}
        label="Auditor (read-only)"
        checked={person.isAuditor}
        disabled={readOnly}
        onChange={(e) => setRightsChange({ right: 'isAuditor', grant: e.target.checked })}
      />
      <RightsConfirmation
        person={person}
        change={rightsChange}
        onCancel={() => setRightsChange(undefined)}
        onConfirm={({ right, grant }) => {
          setRightsChange(undefined);
          change.mutate({ [right]: grant });
        }}
      />
    </>
  );
}

/** Changes a person's details, rights or managed organizations. */
function useChangePerson(person: AdminPerson) {
  return useAdminAction(
    (body: Partial<Omit<PersonBody, 'username'>>) =>
      callEndpoint(admin.changePerson, { params: { id: person.id }, body }),
    {
      success: `${person.username} changed.`,
      refresh,
    },
  );
}

/** The organizations a BRM manages (primary or backup approver of each), changed in place. */
function OrganizationsCell(props: {
  person: AdminPerson;
  routing: RoutingOverview | undefined;
  readOnly: boolean;
}) {
  const { person, routing, readOnly } = props;
  const [editing, setEditing] = useState(false);
  const [organizations, setOrganizations] = useState(person.organizations);
  const change = useChangePerson(person);
  if (editing) {
    return (
      <Form
        onSubmit={(e) => (
          e.preventDefault(),
          change.mutate({ organizations }, { onSuccess: () => setEditing(false) })
        )}
      >
        <OrganizationChoices
          idPrefix={`orgs-${person.id}`}
          chosen={organizations}
          onChange={setOrganizations}
        />
        <Button type="submit" size="sm" className="mt-1">
          Save organizations
        </Button>
      </Form>
    );
  }
  return (
    <>
      {person.isEmployeeBrm && (routing?.assignments.some((a) => a.personId === person.id) ?? false) ? (
        <ApproverKinds person={person} routing={routing} readOnly={readOnly} />
      ) : (
        <>{person.organizations.join(', ') || '—'} </>
      )}
      {!readOnly && (
        <Button
          size="sm"
          variant="link"
          className="p-0"
          onClick={() => setEditing(true)}
          aria-label={`Change organizations of ${person.username}`}
        >
          Change
        </Button>
      )}
    </>
  );
}

/** Remove, the leaving date and Transfer Responsibilities… (GOVERNANCE.md §6.2) of one person. */
function PersonActions({ person }: { person: AdminPerson }) {
  const [transferring, setTransferring] = useState(false);
  return (
    <>
      <RemoveButton person={person} />
      {person.leavingOn && <div className="small text-body-secondary">Leaving on {person.leavingOn}</div>}
      {person.isEmployeeBrm && (
        <Button
          size="sm"
          variant="link"
          className="px-0 d-block"
          onClick={() => setTransferring(true)}
          aria-label={`Transfer Responsibilities of ${person.username}`}
        >
          Transfer Responsibilities…
        </Button>
      )}
      {transferring && <TransferDialog person={person} onClose={() => setTransferring(false)} />}
    </>
  );
}

function RemoveButton({ person }: { person: AdminPerson }) {
  const remove = useAdminAction(() => callEndpoint(admin.removePerson, { params: { id: person.id } }), {
    success: `${person.username} removed.`,
    refresh,
  });
  return (
    <Button
      size="sm"
      variant="outline-danger"
      onClick={() => remove.mutate()}
      aria-label={`Remove ${person.username}`}
    >
      Remove
    </Button>
  );
}

/** Name and email of a person, changed in place (the IdP username stays as it is). */
function PersonDetails({ person, readOnly }: { person: AdminPerson; readOnly: boolean }) {
  const [editing, setEditing] = useState(false);
  const [details, setDetails] = useState({
    givenName: person.givenName,
    familyName: person.familyName,
    email: person.email,
  });
  const change = useChangePerson(person);
  if (!editing) {
    return (
      <>
        {person.givenName} {person.familyName}
        <div className="small text-body-secondary">
          {person.email}{' '}
          {!readOnly && (
            <Button
              size="sm"
              variant="link"
              className="p-0 align-baseline"
              onClick={() => setEditing(true)}
              aria-label={`Edit name and email of ${person.username}`}
            >
              Edit
            </Button>
          )}
        </div>
      </>
    );
  }
  const field = (key: keyof typeof details, label: string, type = 'text') => (
    <Form.Group controlId={`details-${key}-${person.id}`} className="mb-1">
      <Form.Label className="small mb-0">{label}</Form.Label>
      <Form.Control
        size="sm"
        type={type}
        required
        value={details[key]}
        onChange={(e) => setDetails({ ...details, [key]: e.target.value })}
      />
    </Form.Group>
  );
  return (
    <Form
      aria-label={`Name and email of ${person.username}`}
      onSubmit={(e) => (e.preventDefault(), change.mutate(details, { onSuccess: () => setEditing(false) }))}
    >
      {field('givenName', 'Given name')}
      {field('familyName', 'Family name')}
      {field('email', 'Email', 'email')}
      <div className="d-flex gap-2">
        <Button type="submit" size="sm" disabled={change.isPending}>
          Save
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
