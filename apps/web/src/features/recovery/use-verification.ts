import { useCallback, useEffect, useRef, useState } from 'react';
import type { OtpResult, PushResult } from '@pra/contracts';
import { factorMessages } from '@pra/contracts/authenticator';
import { recoveryMessages } from '@pra/contracts/recovery';
import * as calls from '@pra/contracts/endpoints/recovery';
import { callEndpoint, isCancelled } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';

export type Method = 'push' | 'passcode';

const pushFailures: Record<Exclude<PushResult, 'success'>, string> = {
  timeout: recoveryMessages.pushTimeout,
  failure: recoveryMessages.pushDeclined,
  tooManyAttempts: recoveryMessages.tooManyAttempts,
  recentDevice: factorMessages.recentDevice,
};
const passcodeFailures: Record<Exclude<OtpResult, 'success'>, string> = {
  invalidCode: recoveryMessages.badPasscode,
  tooManyAttempts: recoveryMessages.tooManyAttempts,
};

export interface Verification {
  /** The method being verified while the waiting dialog is up. */
  waitingFor: Method | undefined;
  /** The last failure's message, for the warning box below the form. */
  failure: string | undefined;
  push: () => void;
  passcode: (otp: string) => void;
  /** The waiting dialog's Cancel: aborts the request, shows nothing. */
  cancel: () => void;
}

/**
 * Push and passcode verification of the identified account. Each attempt has its own
 * AbortController: a new attempt aborts the previous one, Cancel aborts the current one, and a
 * cancelled request is neither logged nor shown (spec sections 4 and 8).
 */
export function useVerification(username: string, onVerified: () => void): Verification {
  const [waitingFor, setWaitingFor] = useState<Method | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const current = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => current.current?.abort(), []);

  const attempt = useCallback(
    async (method: Method, run: (signal: AbortSignal) => Promise<string | undefined>) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      setWaitingFor(method);
      setFailure(undefined);
      try {
        const problem = await run(controller.signal);
        if (controller.signal.aborted) return;
        if (problem) {
          showAlert(problem, 'danger');
          setFailure(problem);
        } else {
          onVerified();
        }
      } catch (error) {
        if (isCancelled(error) || controller.signal.aborted) return;
        const fallback =
          method === 'push' ? recoveryMessages.pushUnexpected : recoveryMessages.passcodeUnexpected;
        const message = failureMessage(error, fallback);
        showAlert(message, 'danger');
        setFailure(message);
      } finally {
        if (current.current === controller) {
          current.current = undefined;
          setWaitingFor(undefined);
        }
      }
    },
    [onVerified],
  );

  return {
    waitingFor,
    failure,
    push: () =>
      void attempt('push', async (signal) => {
        const { result } = await callEndpoint(calls.pingPush, { body: { username }, signal });
        if (result === 'success') {
          showAlert(recoveryMessages.pushSucceeded, 'success');
          return undefined;
        }
        return pushFailures[result];
      }),
    passcode: (otp: string) =>
      void attempt('passcode', async (signal) => {
        const { result } = await callEndpoint(calls.verifyOtp, { body: { username, otp }, signal });
        if (result === 'success') {
          showAlert(recoveryMessages.codeSucceeded, 'success');
          return undefined;
        }
        return passcodeFailures[result];
      }),
    cancel: () => {
      current.current?.abort();
      current.current = undefined;
      setWaitingFor(undefined);
    },
  };
}
