import './terminate-vendors.compiled.css';
import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { api, routes } from '@pra/contracts/paths';
import { useNavigate } from '../../lib/routing/router';
import { DataTable } from '../../components/data-table/data-table';
import { useDataTable } from '../../components/data-table/use-data-table';
import { downloadText, resultsCsv } from './results-csv';
import { isFinished, shownResult, useTerminate, type JobProgress } from './use-terminate';

interface Line {
  /** Position in the file: duplicates keep their own row. */
  n: number;
  email: string;
  result: string;
}

const PAGE_SIZE = 10;

/** Terminate Vendors (/brm/terminate-vendors): end many vendors' access from a CSV file of emails. */
export function TerminateVendorsPage() {
  const id = useId();
  const navigate = useNavigate();
  const { state, isRunning, chooseFile, terminate, stop, dismiss } = useTerminate();
  const [isConfirming, setIsConfirming] = useState(false);
  const shown = state.results ?? state.preview;
  const lines: Line[] = state.emails.map((email, n) => ({
    n,
    email,
    result: state.results ? shownResult(state, n) : (shown?.[n] ?? ''),
  }));
  const table = useDataTable<Line>({
    rows: lines,
    columns: [
      {
        key: 'email',
        header: 'Emails',
        sortValue: (l) => l.email,
        render: (l) => l.email,
        // Long addresses wrap, so the results keep room on a phone.
        className: 'text-break w-50',
      },
      {
        key: 'result',
        header: 'Results',
        className: 'w-50',
        render: (l) =>
          state.results ? l.result : l.result && <span className="text-body-secondary">{l.result}</span>,
      },
    ],
    pageSize: PAGE_SIZE,
    filterText: (l) => [l.email, l.result],
  });
  const job = state.job;
  const isJobRunning = job !== null && !isFinished(job.status);
  const isDone = state.results !== null && !isJobRunning;
  const done = () => {
    dismiss();
    navigate(routes.welcome);
  };
  // The running page's buttons go when it finishes (keyed below), and keyboard focus with them:
  // a termination confirmed here lands on Done, once the confirmation has closed (it gives focus
  // back to its trigger as it goes) and the results are in, whichever comes last.
  const doneButton = useRef<HTMLButtonElement>(null);
  const focusDone = useRef({ confirmed: false, dialogClosed: true, isDone: false });
  const landOnDone = () => {
    const pending = focusDone.current;
    if (!pending.confirmed || !pending.dialogClosed || !pending.isDone) return;
    pending.confirmed = false;
    doneButton.current?.focus();
  };
  useEffect(() => {
    focusDone.current.isDone = isDone;
    landOnDone();
  });

  return (
    <>
      <h1 className="page-title">Terminate Vendors</h1>
      <p>
        Vendor access is removed from all of your BRM organizations for each user in the file, and accounts
        with no remaining access are terminated.
      </p>
      <p>
        Upload a CSV file of email addresses, separated by line breaks, spaces or commas.{' '}
        <a href={api.terminateExample} download="example.csv">
          Download an example file
        </a>
      </p>
      <Form.Group controlId={`${id}-file`} className="mb-3">
        <Form.Label>CSV file of email addresses</Form.Label>
        <Form.Control
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          isInvalid={Boolean(state.fileError)}
          disabled={isJobRunning}
          aria-describedby={state.fileError ? `${id}-file-error` : undefined}
          onChange={(event) => void chooseFile((event.target as HTMLInputElement).files?.[0])}
        />
        <Form.Control.Feedback type="invalid" id={`${id}-file-error`}>
          {state.fileError}
        </Form.Control.Feedback>
      </Form.Group>

      {job && <JobStatusPanel job={job} onStop={() => void stop()} />}

      {state.emails.length > 0 && !isDone && !job && (
        <Alert variant={state.preview ? 'warning' : 'info'} role="status">
          {state.preview
            ? `Preview: nothing has changed yet. Check what would happen to each of the ${state.emails.length} emails, then choose Terminate Users.`
            : 'Checking what would happen to each email…'}
        </Alert>
      )}
      {isDone && !job && (
        <Alert variant="success" role="status">
          Done: the Results column says what happened to each email.
        </Alert>
      )}

      {state.emails.length > 0 && (
        <DataTable
          table={table}
          caption={isDone ? 'Termination results' : 'Emails and the preview of their results'}
          filterLabel="Filter by email or result"
          emptyText="No emails match"
          getRowKey={(l) => String(l.n)}
        />
      )}

      <div className="d-flex flex-wrap gap-2 mt-3">
        {/* Keyed: the finished page's buttons are new ones, not the running page's restyled. The
            same elements turned from Cancel and a red Terminate Users into Done and Download,
            their colours passing through blends (a .15 s transition) that a person could catch
            and axe did, as a contrast failure. */}
        {isDone ? (
          <>
            <Button key="done" ref={doneButton} variant="primary" onClick={done}>
              Done
            </Button>
            <Button
              key="download"
              variant="outline-secondary"
              onClick={() =>
                downloadText(
                  'terminate-vendors-results.csv',
                  resultsCsv(
                    state.emails,
                    lines.map((l) => l.result),
                  ),
                )
              }
            >
              Download results (CSV)
            </Button>
          </>
        ) : (
          <>
            <Button key="cancel" variant="secondary" onClick={() => navigate(routes.welcome)}>
              Cancel
            </Button>
            <Button
              key="terminate"
              variant="danger"
              disabled={!state.preview || isRunning || isJobRunning}
              onClick={() => setIsConfirming(true)}
            >
              Terminate Users
            </Button>
          </>
        )}
      </div>

      <Modal
        show={isConfirming}
        onHide={() => setIsConfirming(false)}
        onExited={() => {
          focusDone.current.dialogClosed = true;
          // After the modal's own focus restoring, which runs as it finishes closing.
          setTimeout(landOnDone);
        }}
        aria-labelledby={`${id}-confirm`}
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-confirm`} as="h2" className="h5">
            Terminate Users
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          Remove the access of the {state.emails.length} listed{' '}
          {state.emails.length === 1 ? 'email' : 'emails'} from your organizations, as the preview shows?
          Accounts left without access are terminated. This cannot be undone here.
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setIsConfirming(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setIsConfirming(false);
              focusDone.current.confirmed = true;
              focusDone.current.dialogClosed = false;
              void terminate();
            }}
          >
            Confirm termination
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

/** Words for a job's state, under its progress bar. */
function jobText(job: JobProgress): string {
  const count = `${job.done.toLocaleString('en-US')} of ${job.total.toLocaleString('en-US')} emails`;
  switch (job.status) {
    case 'queued':
      return 'Waiting to start…';
    case 'running':
      return job.cancelRequested
        ? `Stopping after the current accounts: ${count} done.`
        : `Terminating: ${count} done.`;
    case 'done':
      return `Done: ${count}. The Results column says what happened to each email.`;
    case 'cancelled':
      return `Stopped: ${count} done; nothing changed for the others.`;
    case 'failed':
      return `Stopped: ${count} done; nothing changed for the others. ${job.error ?? ''}`.trim();
  }
}

/** The progress of a termination run as a background job: it goes on if this page is left or reloaded. */
function JobStatusPanel({ job, onStop }: { job: JobProgress; onStop: () => void }) {
  const isRunning = !isFinished(job.status);
  const variant = job.status === 'done' ? 'success' : isRunning ? 'info' : 'warning';
  return (
    <Alert variant={variant}>
      <p role="status" className="mb-2">
        {jobText(job)}
      </p>
      <div
        className="progress mb-2"
        role="progressbar"
        aria-label="Termination progress"
        aria-valuemin={0}
        aria-valuemax={job.total}
        aria-valuenow={job.done}
        aria-valuetext={`${job.done} of ${job.total} emails`}
      >
        <div
          className={`progress-bar bg-${variant}${isRunning ? ' progress-bar-striped progress-bar-animated' : ''}`}
          style={{ width: `${job.total === 0 ? 100 : (100 * job.done) / job.total}%` }}
        />
      </div>
      {isRunning && (
        <>
          <p className="small mb-2">
            The termination goes on if you leave or reload this page; come back to this tab to follow it.
          </p>
          <Button variant="danger" size="sm" disabled={job.cancelRequested} onClick={onStop}>
            Stop terminating
          </Button>
        </>
      )}
    </Alert>
  );
}
