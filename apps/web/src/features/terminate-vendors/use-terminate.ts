import { useRef, useState } from 'react';
import { parseEmailFile } from '@pra/contracts/terminate-vendors';
import * as calls from '@pra/contracts/endpoints/terminate-vendors';
import { callEndpoint, isCancelled } from '../../api/client';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';

/**
 * The page's states (spec section 4): no file; a file of valid emails (then its preview, a dry
 * run the server answers); results once terminated. Choosing a new file resets everything.
 */
export interface TerminateState {
  emails: string[];
  fileError: string;
  /** What would happen to each email (dry run); null until the server answered. */
  preview: string[] | null;
  /** What happened to each email; null until 'Terminate Users' ran. */
  results: string[] | null;
}

const initial: TerminateState = { emails: [], fileError: '', preview: null, results: null };

export function useTerminate() {
  const [state, setState] = useState<TerminateState>(initial);
  const [isRunning, setIsRunning] = useState(false);
  // A newer file wins over an older file's preview still on its way.
  const latest = useRef<AbortController | null>(null);

  async function chooseFile(file: File | undefined) {
    latest.current?.abort();
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
      const results = await withLoading(() =>
        callEndpoint(calls.terminateVendors, { body: { emails: state.emails } }),
      );
      setState((s) => ({ ...s, results }));
    } catch (error) {
      showAlert((error as Error).message, 'danger');
    } finally {
      setIsRunning(false);
    }
  }

  return { state, isRunning, chooseFile, terminate };
}
