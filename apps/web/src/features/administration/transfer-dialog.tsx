import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPerson, TransferPlanResponse } from '@pra/contracts';
import { departureMessages } from '@pra/contracts';
import { peopleList } from '@pra/contracts/administration';
import * as admin from '@pra/contracts/endpoints/administration';
import * as departure from '@pra/contracts/endpoints/departure';
import { ApiError, callEndpoint, UNKNOWN_ERROR } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { adminKeys } from './use-admin-action';

const INFOSEC = '';

interface Choice {
  organizationId: string;
  organization: string;
  successorId: string;
  makePrimary: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Transfer Responsibilities… (GOVERNANCE.md §6.2): 1. the leaving date and whether the BRM role
 * ends; 2. a successor per organization (the server's defaults first); 3. the preview (a dry run
 * of the same transfer) and "Transfer".
 */
export function TransferDialog(p: { person: AdminPerson; onClose: () => void }) {
  const { person } = p;
  // The successors are any active BRM, not only those on the People page's current page.
  const { data: everyone } = useQuery({
    queryKey: adminKeys.people,
    queryFn: ({ signal }) => callEndpoint(admin.listPeople, { signal }, peopleList),
  });
  const name = `${person.givenName} ${person.familyName}`.trim() || person.username;
  const queryClient = useQueryClient();
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [leavingOn, setLeavingOn] = useState(person.leavingOn ?? new Date().toISOString().slice(0, 10));
  const [endsRole, setEndsRole] = useState(true);
  const [choices, setChoices] = useState<Choice[]>([]);
  const [preview, setPreview] = useState<TransferPlanResponse>();
  const [notify, setNotify] = useState(true);
  const [busy, setBusy] = useState(false);
  const successors = (everyone?.people ?? []).filter(
    (o) => o.isEmployeeBrm && o.id !== person.id && o.status === 'active',
  );

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      showAlert(error instanceof ApiError ? error.message : UNKNOWN_ERROR);
    } finally {
      setBusy(false);
    }
  };
  const body = (dryRun: boolean) => ({
    dryRun,
    notifyVendors: notify,
    successors: choices.map((c) => ({
      organizationId: c.organizationId,
      successorId: c.successorId === INFOSEC ? null : c.successorId,
      makePrimary: c.makePrimary,
    })),
  });
  const toStep2 = () =>
    attempt(async () => {
      await callEndpoint(departure.setLeaving, {
        params: { id: person.id },
        body: { leavingOn, endsRole },
      });
      const plan = await callEndpoint(departure.transferResponsibilities, {
        params: { id: person.id },
        body: { dryRun: true },
      });
      setChoices(
        plan.organizations.map((o) => ({
          organizationId: o.organizationId,
          organization: o.organization,
          successorId: o.successorId ?? INFOSEC,
          makePrimary: o.makePrimary,
        })),
      );
      setStep(2);
    });
  const toStep3 = () =>
    attempt(async () => {
      setPreview(
        await callEndpoint(departure.transferResponsibilities, {
          params: { id: person.id },
          body: body(true),
        }),
      );
      setStep(3);
    });
  const transfer = () =>
    attempt(async () => {
      await callEndpoint(departure.transferResponsibilities, {
        params: { id: person.id },
        body: body(false),
      });
      showAlert(departureMessages.transferred(name), 'success');
      await queryClient.invalidateQueries({ queryKey: adminKeys.people });
      p.onClose();
    });

  return (
    <Modal show onHide={p.onClose} centered size="lg" aria-labelledby={`transfer-${person.id}`}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={`transfer-${person.id}`} as="h2" className="h5">
          Transfer Responsibilities of {name}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-body-secondary small">Step {step} of 3</p>
        {step === 1 && (
          <>
            <Form.Group controlId={`leaving-${person.id}`} className="mb-3">
              <Form.Label>Leaving on</Form.Label>
              <Form.Control type="date" value={leavingOn} onChange={(e) => setLeavingOn(e.target.value)} />
            </Form.Group>
            <Form.Check
              id={`ends-role-${person.id}`}
              label="End their BRM role on that date"
              checked={endsRole}
              onChange={(e) => setEndsRole(e.target.checked)}
            />
          </>
        )}
        {step === 2 &&
          (choices.length === 0 ? (
            <p>{name} manages no organization.</p>
          ) : (
            choices.map((c, i) => (
              <fieldset key={c.organizationId} className="mb-3">
                <legend className="fs-6 fw-semibold">{c.organization}</legend>
                <Form.Group controlId={`successor-${c.organizationId}`}>
                  <Form.Label>Successor</Form.Label>
                  <Form.Select
                    value={c.successorId}
                    onChange={(e) =>
                      setChoices(choices.map((x, j) => (j === i ? { ...x, successorId: e.target.value } : x)))
                    }
                  >
                    {successors.map((s) => (
                      <option key={s.id} value={s.id}>
                        {`${s.givenName} ${s.familyName}`.trim() || s.username}
                      </option>
                    ))}
                    <option value={INFOSEC}>Information Security team</option>
                  </Form.Select>
                </Form.Group>
                <Form.Check
                  className="mt-1"
                  id={`primary-${c.organizationId}`}
                  label="Make successor primary BRM"
                  checked={c.makePrimary}
                  disabled={c.successorId === INFOSEC}
                  onChange={(e) =>
                    setChoices(choices.map((x, j) => (j === i ? { ...x, makePrimary: e.target.checked } : x)))
                  }
                />
              </fieldset>
            ))
          ))}
        {step === 3 && preview && (
          <>
            <p role="status">
              {plural(preview.pendingApprovals, 'pending approval', 'pending approvals')},{' '}
              {plural(preview.openReviewItems, 'open review item', 'open review items')},{' '}
              {plural(preview.extensionRequests, 'extension request', 'extension requests')} and{' '}
              {plural(preview.delegations, 'delegation', 'delegations')} will move;{' '}
              {plural(preview.vendors, 'vendor', 'vendors')} will get a new sponsor.
            </p>
            <ul>
              {preview.organizations.map((o) => (
                <li key={o.organizationId}>
                  {o.organization}: {o.successor}
                </li>
              ))}
            </ul>
            <Form.Check
              id={`notify-${person.id}`}
              label="Tell the vendors who their new sponsor is"
              checked={notify}
              onChange={(e) => setNotify(e.target.checked)}
            />
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        {step > 1 && (
          <Button variant="secondary" disabled={busy} onClick={() => setStep(step === 3 ? 2 : 1)}>
            Back
          </Button>
        )}
        {step === 1 && (
          <Button disabled={busy || !leavingOn} onClick={() => void toStep2()}>
            Next
          </Button>
        )}
        {step === 2 && (
          <Button disabled={busy} onClick={() => void toStep3()}>
            Preview
          </Button>
        )}
        {step === 3 && (
          <Button variant="danger" disabled={busy} onClick={() => void transfer()}>
            Transfer
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
