import type { TerminateVendorsBody, TerminateVendorsResponse } from '@pra/contracts';
import { terminateVendorsResponse } from '@pra/contracts/terminate-vendors';
import { api } from '@pra/contracts/paths';
import { call } from './client';

/** POST /api/brm/terminate-vendors: one result line per email (`dryRun`: what would happen). */
export function terminateVendors(
  body: TerminateVendorsBody,
  signal?: AbortSignal,
): Promise<TerminateVendorsResponse> {
  return call(terminateVendorsResponse, { method: 'post', url: api.terminateVendors, data: body, signal });
}
