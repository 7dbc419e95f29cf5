import { useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Table from 'react-bootstrap/Table';
import { useQuery } from '@tanstack/react-query';
import type { AdminOrganization } from '@pra/contracts';
import * as adminApi from '../../api/administration';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { adminKeys, useAdminAction } from './use-admin-action';

const refresh = [adminKeys.organizationsAll, adminKeys.people] as const;

/** Organizations: list with filter, create, rename, (de)activate, domains. */
export function OrganizationsPage() {
  const [filter, setFilter] = useState('');
  const debounced = useDebouncedValue(filter, 300);
  const { data } = useQuery({
    queryKey: adminKeys.organizations(debounced),
    queryFn: ({ signal }) => adminApi.getOrganizations(debounced, signal),
    meta: { alertOnError: true },
  });
  return (
    <section aria-labelledby="orgs-heading">
      <h2 id="orgs-heading" className="h4">
        Organizations
      </h2>
      <CreateOrganizationForm />
      <Form.Group className="my-3" controlId="org-filter">
        <Form.Label>Filter by name or domain</Form.Label>
        <Form.Control value={filter} onChange={(e) => setFilter(e.target.value)} />
      </Form.Group>
      <Table responsive hover size="sm">
        <thead>
          <tr>
            <th scope="col">Name and access role</th>
            <th scope="col">Email domains</th>
            <th scope="col">BRMs</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {data?.organizations.map((org) => (
            <OrganizationRow key={org.id} org={org} />
          ))}
        </tbody>
      </Table>
      {data?.organizations.length === 0 && <p>No organization matches.</p>}
    </section>
  );
}

function CreateOrganizationForm() {
  const [name, setName] = useState('');
  const [domains, setDomains] = useState('');
  const create = useAdminAction(adminApi.createOrganization, {
    success: (body) => `Organization ${body.name} created.`,
    refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = domains.split(/[\s,;]+/).filter(Boolean);
    create.mutate({ name, domains: list }, { onSuccess: () => (setName(''), setDomains('')) });
  };
  return (
    <Form onSubmit={submit} className="row g-2 align-items-end" aria-label="New organization">
      <Form.Group className="col-12 col-md-5" controlId="new-org-name">
        <Form.Label>New organization name</Form.Label>
        <Form.Control value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </Form.Group>
      <Form.Group className="col-12 col-md-5" controlId="new-org-domains">
        <Form.Label>Email domains (separated by spaces)</Form.Label>
        <Form.Control
          value={domains}
          onChange={(e) => setDomains(e.target.value)}
          placeholder="vendor.example"
        />
      </Form.Group>
      <div className="col-12 col-md-2">
        <Button type="submit" disabled={create.isPending} className="w-100">
          Create
        </Button>
      </div>
    </Form>
  );
}

function OrganizationRow({ org }: { org: AdminOrganization }) {
  const [newName, setNewName] = useState(org.name);
  const [domain, setDomain] = useState('');
  const change = useAdminAction(
    (body: { name?: string; isActive?: boolean }) => adminApi.changeOrganization(org.id, body),
    {
      success: 'Organization changed.',
      refresh,
    },
  );
  const add = useAdminAction((d: string) => adminApi.addDomain(org.id, d), {
    success: (d) => `Domain ${d} added.`,
    refresh,
  });
  const remove = useAdminAction((d: string) => adminApi.removeDomain(org.id, d), {
    success: (d) => `Domain ${d} removed.`,
    refresh,
  });
  return (
    <tr>
      <td>
        <Form
          onSubmit={(e) => (e.preventDefault(), change.mutate({ name: newName }))}
          aria-label={`Rename ${org.name}`}
        >
          <InputGroup size="sm">
            <Form.Control
              aria-label={`Name of ${org.name}`}
              value={newName}
              onChange={(e) => setNewName(e.target.value)}
            />
            <Button
              type="submit"
              variant="outline-secondary"
              disabled={newName.trim() === org.name || !newName.trim()}
            >
              Rename
            </Button>
          </InputGroup>
        </Form>
        <div className="small text-body-secondary mt-1">{org.roleName}</div>
      </td>
      <td>
        <ul className="list-unstyled mb-1">
          {org.domains.map((d) => (
            <li key={d}>
              {d}{' '}
              <Button
                size="sm"
                variant="link"
                className="p-0"
                onClick={() => remove.mutate(d)}
                aria-label={`Remove domain ${d} from ${org.name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
        <Form onSubmit={(e) => (e.preventDefault(), add.mutate(domain, { onSuccess: () => setDomain('') }))}>
          <InputGroup size="sm">
            <Form.Control
              aria-label={`Add a domain to ${org.name}`}
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
            />
            <Button type="submit" variant="outline-secondary" disabled={!domain.trim()}>
              Add
            </Button>
          </InputGroup>
        </Form>
      </td>
      <td>
        {org.brms.length ? (
          org.brms.join(', ')
        ) : (
          <Badge bg="warning" text="dark">
            No BRM
          </Badge>
        )}
      </td>
      <td>
        <div>{org.isActive ? 'Active' : 'Inactive'}</div>
        <Button
          size="sm"
          variant={org.isActive ? 'outline-danger' : 'outline-success'}
          onClick={() => change.mutate({ isActive: !org.isActive })}
          aria-label={`${org.isActive ? 'Deactivate' : 'Reactivate'} ${org.name}`}
        >
          {org.isActive ? 'Deactivate' : 'Reactivate'}
        </Button>
      </td>
    </tr>
  );
}
