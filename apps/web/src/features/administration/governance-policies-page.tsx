import { Fragment, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useQuery } from '@tanstack/react-query';
import {
  checkedGovernanceSettings,
  policyMessages,
  policySettingFields,
  type GovernancePolicy,
  type GovernanceSettings,
} from '@pra/contracts/governance';
import { getGovernancePolicies, saveGovernancePolicy } from '@pra/contracts/endpoints/governance';
import { ApiError, callEndpoint } from '../../api/client';
import { adminKeys, useAdminAction } from './use-admin-action';

type Field = (typeof policySettingFields)[number];
type Key = keyof GovernanceSettings;

const tierName = { standard: 'Standard', high: 'High' } as const;

const plural = (n: number, unit: string) => `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}`;

/** A setting's value as the table shows it. */
function shown(field: Field, value: GovernanceSettings[Key]): string {
  switch (field.kind) {
    case 'days':
      return plural(value as number, field.unit);
    case 'dayList': {
      const list = value as number[];
      return list.length
        ? `${list.join(', ')} ${list.length === 1 && list[0] === 1 ? 'day' : 'days'}`
        : 'None';
    }
    case 'optionalDays':
      return value === null ? 'None' : plural(value as number, 'days');
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'choice':
      return field.options.find((o) => o.value === value)?.label ?? String(value);
  }
}

const groups = [...new Set(policySettingFields.map((f) => f.group))];

/** Administration → Governance → Policies (GOVERNANCE.md §2.3): each risk tier's settings. */
export function GovernancePoliciesPage() {
  const { data } = useQuery({
    queryKey: adminKeys.policies,
    queryFn: ({ signal }) => callEndpoint(getGovernancePolicies, { signal }),
    meta: { alertOnError: true },
  });
  const [editing, setEditing] = useState<GovernancePolicy>();
  if (!data)
    return (
      <p role="status">
        <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        Loading the policies…
      </p>
    );
  return (
    <section aria-labelledby="policies-heading">
      <h2 id="policies-heading" className="h4">
        {policyMessages.heading}
      </h2>
      <p>
        Each organization has a risk tier (set on Organizations). These settings apply to the organizations of
        each tier.
        {!data.canEdit && ' You can read them; only admins who are not auditors can change them.'}
      </p>
      <Table size="sm" className="policy-table">
        <caption className="visually-hidden">Governance policy per risk tier</caption>
        <colgroup>
          <col className="policy-table-setting" />
          {data.policies.map((policy) => (
            <col key={policy.tier} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Setting</th>
            {data.policies.map((policy) => (
              <th scope="col" key={policy.tier}>
                {tierName[policy.tier]} tier
                {data.canEdit && (
                  <Button
                    size="sm"
                    variant="outline-primary"
                    className="d-block d-md-inline-block mt-1 mt-md-0 ms-md-2"
                    onClick={() => setEditing(policy)}
                    aria-label={`Edit the ${policy.tier} tier`}
                  >
                    Edit
                  </Button>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <Fragment key={group}>
              <tr className="table-light">
                <th scope="colgroup" colSpan={data.policies.length + 1}>
                  {group}
                </th>
              </tr>
              {policySettingFields
                .filter((f) => f.group === group)
                .map((field) => (
                  <tr key={field.key}>
                    <th scope="row" className="fw-normal">
                      {field.label}
                    </th>
                    {data.policies.map((policy) => (
                      <td key={policy.tier}>{shown(field, policy.settings[field.key])}</td>
                    ))}
                  </tr>
                ))}
            </Fragment>
          ))}
          <tr>
            <th scope="row" className="fw-normal">
              Last changed
            </th>
            {data.policies.map((policy) => (
              <td key={policy.tier} className="small">
                {new Date(policy.updatedAt).toLocaleString()}
                {policy.updatedBy ? ` by ${policy.updatedBy}` : ''}
              </td>
            ))}
          </tr>
        </tbody>
      </Table>
      {editing && <EditPolicyDialog policy={editing} onClose={() => setEditing(undefined)} />}
    </section>
  );
}

/** What the form holds per field: text for numbers and lists, as typed. */
type Draft = Record<Key, string | boolean>;

function draftOf(settings: GovernanceSettings): Draft {
  const draft = {} as Draft;
  for (const field of policySettingFields) {
    const value = settings[field.key];
    draft[field.key] =
      typeof value === 'boolean'
        ? value
        : Array.isArray(value)
          ? value.join(', ')
          : value === null
            ? ''
            : String(value);
  }
  return draft;
}

/** The draft as settings (numbers parsed; a list split at commas or spaces; empty optional: null). */
function settingsOf(draft: Draft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  for (const field of policySettingFields) {
    const value = draft[field.key];
    if (field.kind === 'boolean') out[field.key] = value;
    else if (field.kind === 'choice') out[field.key] = value;
    else if (field.kind === 'dayList')
      out[field.key] = String(value)
        .split(/[\s,;]+/)
        .filter(Boolean)
        .map(Number);
    else if (field.kind === 'optionalDays')
      out[field.key] = String(value).trim() === '' ? null : number(String(value));
    else out[field.key] = number(String(value));
  }
  return out;
}

type Errors = Partial<Record<Key, string>>;

/** The problems per setting, from the shared schema or the server's "settings.key: message". */
function errorsOf(messages: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const errors: Errors = {};
  for (const { path, message } of messages) {
    const key = path[0] as Key | undefined;
    if (key) errors[key] ??= message;
  }
  return errors;
}

/** The server's refusal of a setting ("settings.accessDays: …"), beside that setting. */
function serverErrors(error: unknown): Errors {
  if (!(error instanceof ApiError)) return {};
  const match = /^settings\.(\w+)(?:\.\d+)?: (.*)$/s.exec(error.message);
  return match ? { [match[1] as Key]: match[2] } : {};
}

function EditPolicyDialog({ policy, onClose }: { policy: GovernancePolicy; onClose: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(policy.settings));
  const [errors, setErrors] = useState<Errors>({});
  const save = useAdminAction(
    (settings: GovernanceSettings) =>
      callEndpoint(saveGovernancePolicy, { body: { tier: policy.tier, version: policy.version, settings } }),
    { success: policyMessages.saved(policy.tier), refresh: [adminKeys.policies] },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = checkedGovernanceSettings.safeParse(settingsOf(draft));
    if (!parsed.success) {
      setErrors(errorsOf(parsed.error.issues));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, { onSuccess: onClose, onError: (error) => setErrors(serverErrors(error)) });
  };
  const titleId = `edit-${policy.tier}-title`;
  const formId = `edit-${policy.tier}-form`;
  return (
    <Modal show onHide={onClose} size="lg" scrollable aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          Edit the {policy.tier} tier’s policy
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form noValidate onSubmit={submit} id={formId} aria-labelledby={titleId}>
          {groups.map((group) => (
            <fieldset key={group} className="mb-3">
              <legend className="fs-6 fw-semibold">{group}</legend>
              <div className="row g-2">
                {policySettingFields
                  .filter((f) => f.group === group)
                  .map((field) => (
                    <SettingInput
                      key={field.key}
                      field={field}
                      value={draft[field.key]}
                      error={errors[field.key]}
                      onChange={(value) => setDraft({ ...draft, [field.key]: value })}
                    />
                  ))}
              </div>
            </fieldset>
          ))}
        </Form>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" form={formId} disabled={save.isPending}>
          Save
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

function SettingInput(props: {
  field: Field;
  value: string | boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const { field, value, error, onChange } = props;
  const id = `policy-${field.key}`;
  const errorId = `${id}-error`;
  const described = error ? { 'aria-describedby': errorId, 'aria-invalid': true } : {};
  if (field.kind === 'boolean') {
    return (
      <div className="col-12">
        <Form.Check
          id={id}
          label={field.label}
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
          isInvalid={Boolean(error)}
          {...described}
        />
        {error && (
          <div id={errorId} className="invalid-feedback d-block">
            {error}
          </div>
        )}
      </div>
    );
  }
  const unit =
    field.kind === 'days'
      ? field.unit
      : field.kind === 'dayList'
        ? 'days, separated by commas'
        : field.kind === 'optionalDays'
          ? 'days'
          : undefined;
  return (
    <Form.Group className="col-12 col-md-6" controlId={id}>
      <Form.Label>
        {field.label}
        {unit && <span className="text-body-secondary small"> ({unit})</span>}
      </Form.Label>
      {field.kind === 'choice' ? (
        <Form.Select
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
          isInvalid={Boolean(error)}
          {...described}
        >
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Form.Select>
      ) : (
        <Form.Control
          inputMode={field.kind === 'dayList' ? 'text' : 'numeric'}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
          isInvalid={Boolean(error)}
          {...described}
        />
      )}
      <Form.Control.Feedback type="invalid" id={errorId}>
        {error}
      </Form.Control.Feedback>
    </Form.Group>
  );
}
