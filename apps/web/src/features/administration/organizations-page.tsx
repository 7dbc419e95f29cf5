import { useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import type { AdminOrganization, ChangeOrganizationBody, CreateOrganizationBody } from '@pra/contracts';
import { riskTiers } from '@pra/contracts/governance';
import { adminRoutes } from '@pra/contracts/paths';
import { createOrganizationBody, organizationDomain, organizationPage } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import { ApiError, callEndpoint } from '../../api/client';
import { splitFieldPath } from '../../api/failure-message';
import { DataTable } from '../../components/data-table/data-table';
import { useServerTable } from '../../components/data-table/use-server-table';
import type { DataColumn } from '../../components/data-table/use-data-table';
import { LoadingStatus } from './loading-status';
import { Link } from '../../lib/routing/router';
import { useCurrentUser } from '../../lib/use-current-user';
import { adminKeys, useAdminAction } from './use-admin-action';

const refresh = [adminKeys.organizationsAll, adminKeys.people] as const;

/** The admin lists' page size (the server's default for them). */
const PAGE_SIZE = 25;

/** The columns of the Organizations table; an auditor's controls are all disabled. */
function organizationColumns(readOnly: boolean): DataColumn<AdminOrganization>[] {
  return [
    {
      key: 'name',
      header: 'Name and access role',
      sortValue: (org) => org.name,
      render: (org) => <NameCell org={org} readOnly={readOnly} />,
    },
    {
      key: 'domains',
      header: 'Email domains',
      render: (org) => <DomainsCell org={org} readOnly={readOnly} />,
    },
    {
      key: 'brms',
      header: 'BRMs',
      render: (org) =>
        org.brms.length ? (
          org.brms.join(', ')
        ) : (
          <Badge bg="warning" text="dark">
            No BRM
          </Badge>
        ),
    },
    { key: 'status', header: 'Status', render: (org) => <StatusCell org={org} readOnly={readOnly} /> },
    {
      key: 'governance',
      header: 'Risk tier and contract',
      render: (org) => <GovernanceTerms org={org} readOnly={readOnly} />,
    },
  ];
}

/** Organizations: list with filter, create, rename, (de)activate, domains; one page at a time. */
export function OrganizationsPage() {
  const readOnly = useCurrentUser().data?.isAuditor === true;
  const { table, isPending } = useServerTable({
    queryKey: adminKeys.organizationPages,
    columns: organizationColumns(readOnly),
    pageSize: PAGE_SIZE,
    initialSort: { key: 'name', direction: 'asc' },
    fetchPage: (params, signal) =>
      callEndpoint(
        admin.listOrganizations,
        { query: { ...params, sort: params.sort as 'name' | undefined }, signal },
        organizationPage,
      ),
  });
  return (
    <section aria-labelledby="orgs-heading">
      <h2 id="orgs-heading" className="h4">
        Organizations
      </h2>
      {!readOnly && <CreateOrganizationForm />}
      <div className="mt-3">
        {isPending ? (
          <LoadingStatus text="Loading organizations…" />
        ) : (
          <DataTable
            table={table}
            caption="Organizations"
            filterLabel="Filter by name or domain"
            emptyText="No organization matches."
            getRowKey={(org) => org.id}
            stackOnPhone
          />
        )}
      </div>
    </section>
  );
}

type OrganizationField = 'name' | 'domains';
type FieldErrors = Partial<Record<OrganizationField, string>>;

/**
 * The form's own check with the API's rules, each message for the field the screen shows (a bad
 * domain is named by what was typed, never as `domains.0`).
 */
function checkNewOrganization(name: string, domains: string[]): FieldErrors {
  const parsed = createOrganizationBody.safeParse({ name, domains });
  if (parsed.success) return {};
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const [field, index] = issue.path;
    if (field !== 'name' && field !== 'domains') continue;
    const typed = typeof index === 'number' ? domains[index] : undefined;
    errors[field] ??= typed ? `${typed}: ${issue.message}` : issue.message;
  }
  return errors;
}

/** The server's refusal of one field (`name: …`, `domains.1: …`), for that field. */
function serverFieldError(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const { field, text } = splitFieldPath(error.message);
  return field === 'name' || field === 'domains' ? { [field]: text } : {};
}

/** The server's refusal of the one domain field of a row (`domain: …`). */
function domainOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const { field, text } = splitFieldPath(error.message);
  return field === 'domain' ? text : undefined;
}

function CreateOrganizationForm() {
  const [name, setName] = useState('');
  const [domains, setDomains] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useAdminAction(
    (body: CreateOrganizationBody) => callEndpoint(admin.createOrganization, { body }),
    {
      success: (body) => `Organization ${body.name} created.`,
      refresh,
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = domains.split(/[\s,;]+/).filter(Boolean);
    const found = checkNewOrganization(name, list);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      { name, domains: list },
      {
        onSuccess: () => (setName(''), setDomains('')),
        onError: (error) => setErrors(serverFieldError(error)),
      },
    );
  };
  return (
    <Form noValidate onSubmit={submit} className="row g-2 align-items-start" aria-label="New organization">
      <Form.Group className="col-12 col-md-5" controlId="new-org-name">
        <Form.Label>New organization name</Form.Label>
        <Form.Control
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={200}
          isInvalid={Boolean(errors.name)}
          aria-describedby={errors.name ? 'new-org-name-error' : undefined}
        />
        <Form.Control.Feedback type="invalid" id="new-org-name-error">
          {errors.name}
        </Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="col-12 col-md-5" controlId="new-org-domains">
        <Form.Label>Email domains (separated by spaces)</Form.Label>
        <Form.Control
          value={domains}
          onChange={(e) => setDomains(e.target.value)}
          placeholder="vendor.example"
          isInvalid={Boolean(errors.domains)}
          aria-describedby={errors.domains ? 'new-org-domains-error' : undefined}
        />
        <Form.Control.Feedback type="invalid" id="new-org-domains-error">
          {errors.domains}
        </Form.Control.Feedback>
      </Form.Group>
      <div className="col-12 col-md-2 align-self-end">
        <Button type="submit" disabled={create.isPending} className="w-100">
          Create
        </Button>
      </div>
    </Form>
  );
}

/** Renames an organization; its access role's name follows. */
function NameCell({ org, readOnly }: { org: AdminOrganization; readOnly: boolean }) {
  const [newName, setNewName] = useState(org.name);
  const change = useAdminAction(
    (body: { name: string }) => callEndpoint(admin.changeOrganization, { params: { id: org.id }, body }),
    { success: 'Organization changed.', refresh },
  );
  return (
    <>
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
            disabled={readOnly || newName.trim() === org.name || !newName.trim()}
          >
            Rename
          </Button>
        </InputGroup>
      </Form>
      <div className="small text-body-secondary mt-1">{org.roleName}</div>
    </>
  );
}

/** An organization's email domains: remove one, add one. */
function DomainsCell({ org, readOnly }: { org: AdminOrganization; readOnly: boolean }) {
  const [domain, setDomain] = useState('');
  const [domainError, setDomainError] = useState<string>();
  const add = useAdminAction(
    (d: string) => callEndpoint(admin.addDomain, { params: { id: org.id }, body: { domain: d } }),
    {
      success: (d) => `Domain ${d} added.`,
      refresh,
    },
  );
  const remove = useAdminAction(
    (d: string) => callEndpoint(admin.removeDomain, { params: { id: org.id, domain: d } }),
    {
      success: (d) => `Domain ${d} removed.`,
      refresh,
    },
  );
  return (
    <>
      <ul className="list-unstyled mb-1">
        {org.domains.map((d) => (
          <li key={d}>
            {d}{' '}
            <Button
              size="sm"
              variant="link"
              className="p-0"
              disabled={readOnly}
              onClick={() => remove.mutate(d)}
              aria-label={`Remove domain ${d} from ${org.name}`}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <Form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const checked = organizationDomain.safeParse(domain);
          setDomainError(checked.success ? undefined : checked.error.issues[0]?.message);
          if (!checked.success) return;
          add.mutate(domain, {
            onSuccess: () => setDomain(''),
            onError: (error) => setDomainError(domainOf(error)),
          });
        }}
      >
        <InputGroup size="sm" hasValidation>
          <Form.Control
            aria-label={`Add a domain to ${org.name}`}
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
            isInvalid={Boolean(domainError)}
            aria-describedby={domainError ? `${org.id}-domain-error` : undefined}
          />
          <Button type="submit" variant="outline-secondary" disabled={readOnly || !domain.trim()}>
            Add
          </Button>
          <Form.Control.Feedback type="invalid" id={`${org.id}-domain-error`}>
            {domainError}
          </Form.Control.Feedback>
        </InputGroup>
      </Form>
    </>
  );
}

/** Active or inactive, and the button that switches it. */
function StatusCell({ org, readOnly }: { org: AdminOrganization; readOnly: boolean }) {
  const change = useAdminAction(
    (body: { isActive: boolean }) => callEndpoint(admin.changeOrganization, { params: { id: org.id }, body }),
    { success: 'Organization changed.', refresh },
  );
  return (
    <>
      <div>{org.isActive ? 'Active' : 'Inactive'}</div>
      <Button
        size="sm"
        variant={org.isActive ? 'outline-danger' : 'outline-success'}
        disabled={readOnly}
        onClick={() => change.mutate({ isActive: !org.isActive })}
        aria-label={`${org.isActive ? 'Deactivate' : 'Reactivate'} ${org.name}`}
      >
        {org.isActive ? 'Deactivate' : 'Reactivate'}
      </Button>
    </>
  );
}

/**
 * The organization's risk tier (which governance policy applies) and optional contract end date
 * (no grant may end later), GOVERNANCE.md §2.3. Read-only for auditors.
 */
function GovernanceTerms({ org, readOnly }: { org: AdminOrganization; readOnly: boolean }) {
  const [tier, setTier] = useState(org.riskTier);
  const [contractEnd, setContractEnd] = useState(org.contractEndsOn ?? '');
  const [error, setError] = useState<string>();
  const [pastEnd, setPastEnd] = useState(0);
  const save = useAdminAction(
    (body: ChangeOrganizationBody) =>
      callEndpoint(admin.changeOrganization, { params: { id: org.id }, body }),
    { success: `Risk tier and contract end of ${org.name} saved.`, refresh },
  );
  const changed = tier !== org.riskTier || contractEnd !== (org.contractEndsOn ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    save.mutate(
      { riskTier: tier, contractEndsOn: contractEnd || null },
      {
        onSuccess: ({ grantsPastContractEnd }) => setPastEnd(grantsPastContractEnd),
        onError: (failure) => {
          if (!(failure instanceof ApiError)) return;
          const { field, text } = splitFieldPath(failure.message);
          if (field === 'contractEndsOn') setError(text);
        },
      },
    );
  };
  const errorId = `${org.id}-contract-error`;
  return (
    <Form noValidate onSubmit={submit} aria-label={`Risk tier and contract of ${org.name}`}>
      <Form.Select
        size="sm"
        aria-label={`Risk tier of ${org.name}`}
        value={tier}
        disabled={readOnly}
        onChange={(e) => setTier(e.target.value as typeof tier)}
        className="mb-1"
      >
        {riskTiers.map((t) => (
          <option key={t} value={t}>
            {t === 'high' ? 'High' : 'Standard'}
          </option>
        ))}
      </Form.Select>
      <Form.Label htmlFor={`${org.id}-contract`} className="small mb-0">
        Contract ends on
      </Form.Label>
      <Form.Control
        id={`${org.id}-contract`}
        size="sm"
        type="date"
        value={contractEnd}
        disabled={readOnly}
        onChange={(e) => setContractEnd(e.target.value)}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <Form.Control.Feedback type="invalid" id={errorId}>
        {error}
      </Form.Control.Feedback>
      {!readOnly && (
        <Button
          type="submit"
          size="sm"
          variant="outline-primary"
          className="mt-1"
          disabled={!changed || save.isPending}
        >
          Save
        </Button>
      )}
      {pastEnd > 0 && (
        <div className="small text-warning-emphasis mt-1" role="status">
          {pastEnd === 1 ? '1 current grant ends' : `${pastEnd} current grants end`} after the contract end.
          They are not shortened: see <Link to={adminRoutes.reportEnding}>Access ending</Link>.
        </div>
      )}
      <div className="small mt-1">
        <Link to={adminRoutes.governance}>Tier policies</Link>
      </div>
    </Form>
  );
}
