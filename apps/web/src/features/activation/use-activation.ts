import { useMutation } from '@tanstack/react-query';
import type { ActivateBody, DecodeResponse } from '@pra/contracts';
import { activationMessages } from '@pra/contracts/activation';
import * as calls from '@pra/contracts/endpoints/activation';
import { callEndpoint } from '../../api/client';
import { failureMessage } from '../../api/failure-message';
import { showAlert } from '../../lib/alerts';
import { withLoading } from '../../lib/loading';

/**
 * What a failed code check shows, typed or from the link: the server's words for a refused code,
 * otherwise 'Failed to process activation code'.
 */
export function decodeFailureMessage(error: unknown): string {
  return failureMessage(error, activationMessages.failedToProcess);
}

/** Checks a typed activation code; a failed call shows 'Failed to process activation code'. */
export function useDecodeCode(onChecked: (code: string, result: DecodeResponse) => void) {
  return useMutation({
    // The field's text is kept as typed (the answer is matched to it); the server gets it trimmed.
    mutationFn: (code: string) =>
      callEndpoint(calls.decodeActivationCode, { body: { claimCode: code.trim() } }),
    onSuccess: (result, code) => onChecked(code, result),
    onError: (error) => showAlert(decodeFailureMessage(error), 'danger'),
  });
}

/** Sets the initial password and activates the account. */
export function useActivate(onActivated: () => void) {
  return useMutation({
    mutationFn: (body: ActivateBody) => withLoading(() => callEndpoint(calls.activateWithPassword, { body })),
    onSuccess: (result) => {
      if (!result.success) {
        showAlert(activationMessages.unexpected, 'danger');
        return;
      }
      showAlert(activationMessages.activated, 'success');
      onActivated();
    },
    onError: (error) => showAlert(failureMessage(error, activationMessages.unexpected), 'danger'),
  });
}
