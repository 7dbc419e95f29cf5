import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useQuery } from '@tanstack/react-query';
import type { AdminPerson, PersonBody } from '@pra/contracts';
import * as admin from '@pra/contracts/endpoints/administration';
import { callEndpoint } from '../../api/client';
import { RightsConfirmation, type RightsChange } from './rights-confirmation';
import { adminKeys, useAdminAction } from './use-admin-action';
import { TransferDialog } from './transfer-dialog';

const refresh = [adminKeys.people, adminKeys.organizationsAll] as const;

function useOrganizationNames(): string[] {
  const { data } = useQuery({
    queryKey: adminKeys.organizations(''),
    queryFn: ({ signal }) => callEndpoint(admin.listOrganizations, { signal }),
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

/** People: hospital employees, their BRM and admin flags and managed organizations. */
export function PeoplePage() {
  const { data } = useQuery({
    queryKey: adminKeys.people,
    queryFn: ({ signal }) => callEndpoint(admin.listPeople, { signal }),
    meta: { alertOnError: true },
  });
  const people = data?.people.filter((p) => p.status !== 'terminated') ?? [];
  return (
    <section aria-labelledby="people-heading">
      <h2 id="people-heading" className="h4">
        People
      </h2>
      <AddPersonForm />
      <Table responsive hover size="sm" className="mt-3 table-stacked-phone">
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Name and email</th>
            <th scope="col">Roles</th>
            <th scope="col">Organizations</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <PersonRow key={person.id} person={person} people={people} />
          ))}
        </tbody>
      </Table>
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

function PersonRow({ person, people }: { person: AdminPerson; people: AdminPerson[] }) {
  const [editing, setEditing] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [organizations, setOrganizations] = useState(person.organizations);
  // A right changes only once the admin confirmed what it grants or removes.
  const [rightsChange, setRightsChange] = useState<RightsChange>();
  const change = useAdminAction(
    (body: Partial<Omit<PersonBody, 'username'>>) =>
      callEndpoint(admin.changePerson, { params: { id: person.id }, body }),
    {
      success: `${person.username} changed.`,
      refresh,
    },
  );
  const remove = useAdminAction(() => callEndpoint(admin.removePerson, { params: { id: person.id } }), {
    success: `${person.username} removed.`,
    refresh,
  });
  return (
    <tr>
      <td data-label="Username">{person.username}</td>
      <td data-label="Name and email">
        <PersonDetails person={person} />
      </td>
      <td data-label="Roles">
        <Form.Check
          id={`brm-${person.id}`}
          label="BRM"
          checked={person.isEmployeeBrm}
          onChange={(e) => setRightsChange({ right: 'isEmployeeBrm', grant: e.target.checked })}
        />
        <Form.Check
          id={`admin-${person.id}`}
          label="Admin"
          checked={person.isAdmin}
          onChange={(e) => setRightsChange({ right: 'isAdmin', grant: e.target.checked })}
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
      </td>
      <td data-label="Organizations">
        {editing ? (
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
        ) : (
          <>
            {person.organizations.join(', ') || '—'}{' '}
            <Button
              size="sm"
              variant="link"
              onClick={() => setEditing(true)}
              aria-label={`Change organizations of ${person.username}`}
            >
              Change
            </Button>
          </>
        )}
      </td>
      <td>
        <Button
          size="sm"
          variant="outline-danger"
          onClick={() => remove.mutate()}
          aria-label={`Remove ${person.username}`}
        >
          Remove
        </Button>
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
        {transferring && (
          <TransferDialog person={person} people={people} onClose={() => setTransferring(false)} />
        )}
      </td>
    </tr>
  );
}

/** Name and email of a person, changed in place (the IdP username stays as it is). */
function PersonDetails({ person }: { person: AdminPerson }) {
  const [editing, setEditing] = useState(false);
  const [details, setDetails] = useState({
    givenName: person.givenName,
    familyName: person.familyName,
    email: person.email,
  });
  const change = useAdminAction(
    (body: typeof details) => callEndpoint(admin.changePerson, { params: { id: person.id }, body }),
    {
      success: `${person.username} changed.`,
      refresh,
    },
  );
  if (!editing) {
    return (
      <>
        {person.givenName} {person.familyName}
        <div className="small text-body-secondary">
          {person.email}{' '}
          <Button
            size="sm"
            variant="link"
            className="p-0 align-baseline"
            onClick={() => setEditing(true)}
            aria-label={`Edit name and email of ${person.username}`}
          >
            Edit
          </Button>
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
