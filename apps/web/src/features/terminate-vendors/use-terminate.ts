import { useEffect, useRef, useState } from 'react';
import {
  NOT_REACHED,
  parseEmailFile,
  TERMINATE_JOB_THRESHOLD,
  type JobStatus,
  type TerminateJobView,
} from '@pra/contracts/terminate-vendors';
import * as calls from '@pra/contracts/endpoints/terminate-vendors';
import { callEndpoint, isCancelled } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';

/** A termination running (or run) as a background job: what the progress bar shows. */
export interface JobProgress {
  id: string;
  status: JobStatus;
  done: number;
  total: number;
  cancelRequested: boolean;
  error: string | null;
}

/**
 * The page's states (spec section 4): no file; a file of valid emails (then its preview, a dry
 * run the server answers); results once terminated. Choosing a new file resets everything. A large
 * file is terminated by a job: results fill in as it goes, and a reload finds it again.
 */
export interface TerminateState {
  emails: string[];
  fileError: string;
  /** What would happen to each email (dry run); null until the server answered. */
  preview: string[] | null;
  /** What happened to each email ('' while a job has not reached it); null until 'Terminate Users' ran. */
  results: string[] | null;
  /** The job terminating a large file; null for the single call. */
  job: JobProgress | null;
}

const initial: TerminateState = { emails: [], fileError: '', preview: null, results: null, job: null };

/** Where the page keeps the job it follows, so a reload of the tab follows it again. */
export const JOB_STORAGE_KEY = 'pra.terminate-vendors.job';
const POLL_MS = 1_000;

export const isFinished = (status: JobStatus) =>
  status === 'done' || status === 'cancelled' || status === 'failed';

function progressOf(view: TerminateJobView): JobProgress {
  const { id, status, done, total, cancelRequested, error } = view;
  return { id, status, done, total, cancelRequested, error };
}

export function useTerminate() {
  const [state, setState] = useState<TerminateState>(initial);
  const [isRunning, setIsRunning] = useState(false);
  // A newer file wins over an older file's preview still on its way.
  const latest = useRef<AbortController | null>(null);
  // The job being followed; aborted when the page goes away.
  const following = useRef<AbortController | null>(null);

  /** Polls the job from line `from` on until it has finished, filling the results in. */
  async function follow(id: string, from: number) {
    following.current?.abort();
    const controller = new AbortController();
    following.current = controller;
    let next = from;
    try {
      for (;;) {
        const view = await callEndpoint(calls.terminateJob, {
          params: { id },
          query: { from: next },
          signal: controller.signal,
        });
        next = view.next;
        setState((s) => {
          const emails = view.emails ?? s.emails;
          const results =
            s.results && s.results.length === emails.length ? [...s.results] : emails.map(() => '');
          for (const line of view.results) results[line.item] = line.result;
          return { ...s, emails, results, job: progressOf(view) };
        });
        if (isFinished(view.status) && next >= view.done) break;
        await new Promise((resolve) => setTimeout(resolve, next < view.done ? 0 : POLL_MS));
        if (controller.signal.aborted) return;
      }
    } catch (error) {
      if (isCancelled(error) || controller.signal.aborted) return;
      sessionStorage.removeItem(JOB_STORAGE_KEY);
      showAlert((error as Error).message, 'danger');
    }
  }

  // A reload (or a return to the page) finds the job this tab started.
  useEffect(() => {
    const id = sessionStorage.getItem(JOB_STORAGE_KEY);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- set once the server has answered
    if (id) void follow(id, 0);
    return () => following.current?.abort();
  }, []);

  async function chooseFile(file: File | undefined) {
    latest.current?.abort();
    following.current?.abort();
    sessionStorage.removeItem(JOB_STORAGE_KEY);
    setState(initial);
    if (!file) return;
    let text: string;
    try {
      text = await file.text();
    } catch {
      text = '';
    }
    const parsed = parseEmailFile(text);
    if ('error' in parsed) {
      setState({ ...initial, fileError: parsed.error });
      return;
    }
    setState({ ...initial, emails: parsed.emails });
    const controller = new AbortController();
    latest.current = controller;
    try {
      const preview = await callEndpoint(calls.terminateVendors, {
        body: { emails: parsed.emails, dryRun: true },
        signal: controller.signal,
      });
      if (!controller.signal.aborted) setState((s) => (s.emails === parsed.emails ? { ...s, preview } : s));
    } catch (error) {
      if (!isCancelled(error) && !controller.signal.aborted) showAlert((error as Error).message, 'danger');
    }
  }

  async function terminate() {
    setIsRunning(true);
    try {
      if (state.emails.length > TERMINATE_JOB_THRESHOLD) {
        const { id } = await withLoading(() =>
          callEndpoint(calls.startTerminateJob, { body: { emails: state.emails } }),
        );
        sessionStorage.setItem(JOB_STORAGE_KEY, id);
        setState((s) => ({
          ...s,
          results: s.emails.map(() => ''),
          job: { id, status: 'queued', done: 0, total: s.emails.length, cancelRequested: false, error: null },
        }));
        await follow(id, 0);
      } else {
        const results = await withLoading(() =>
          callEndpoint(calls.terminateVendors, { body: { emails: state.emails } }),
        );
        setState((s) => ({ ...s, results }));
      }
    } catch (error) {
      showAlert((error as Error).message, 'danger');
    } finally {
      setIsRunning(false);
    }
  }

  /** Asks the job to stop before its next accounts; what it already did stays done. */
  async function stop() {
    const job = state.job;
    if (!job) return;
    try {
      await callEndpoint(calls.cancelTerminateJob, { params: { id: job.id } });
      setState((s) => (s.job ? { ...s, job: { ...s.job, cancelRequested: true } } : s));
    } catch (error) {
      showAlert((error as Error).message, 'danger');
    }
  }

  /** Done: the tab no longer follows the job. */
  function dismiss() {
    following.current?.abort();
    sessionStorage.removeItem(JOB_STORAGE_KEY);
  }

  return { state, isRunning, chooseFile, terminate, stop, dismiss };
}

/** The result shown for an email: a stopped job's unreached emails say so. */
export function shownResult(state: TerminateState, n: number): string {
  return state.results?.[n] || (state.job && isFinished(state.job.status) ? NOT_REACHED : '');
}
