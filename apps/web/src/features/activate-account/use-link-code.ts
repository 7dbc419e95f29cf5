import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { activationMessages, type DecodeResponse } from '@pra/contracts';
import { decodeActivationCode } from '../../api/activation';
import { isCancelled } from '../../api/client';
import { showAlert } from '../../app/alerts';
import { failureMessage } from './failure-message';

/**
 * Decodes the `?code=` of the emailed link once, on arrival. Returns whether the wizard must still
 * wait (it renders nothing until the check is done); `onChecked` gets `undefined` when the call failed.
 */
export function useLinkCode(onChecked: (code: string, result: DecodeResponse | undefined) => void): boolean {
  const [searchParams] = useSearchParams();
  const linkCode = (searchParams.get('code') ?? '').trim();
  const [isDone, setIsDone] = useState(linkCode === '');

  useEffect(() => {
    if (!linkCode) return;
    const controller = new AbortController();
    decodeActivationCode(linkCode, controller.signal).then(
      (result) => {
        onChecked(linkCode, result);
        setIsDone(true);
      },
      (error: unknown) => {
        if (isCancelled(error)) return;
        showAlert(failureMessage(error, activationMessages.failedToProcess), 'danger');
        onChecked(linkCode, undefined);
        setIsDone(true);
      },
    );
    return () => controller.abort();
    // `onChecked` is expected to be stable (useCallback); the code in the address does not change
    // while the wizard runs, so this runs once, on arrival.
  }, [linkCode, onChecked]);

  return !isDone;
}
