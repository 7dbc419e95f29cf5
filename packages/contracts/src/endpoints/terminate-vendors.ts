import { endpoint } from '../endpoint';
import { api } from '../paths';
import { z } from 'zod';
import {
  terminateJobBody,
  terminateJobQuery,
  terminateJobStarted,
  terminateJobView,
  terminateVendorsBody,
  terminateVendorsResponse,
} from '../terminate-vendors';

const jobParam = z.object({ id: z.uuid('Not a valid id.') });
const brm = { tag: 'terminate-vendors', callers: 'employeeBrm' } as const;

export const terminateVendors = endpoint({
  method: 'POST',
  path: api.terminateVendors,
  operationId: 'terminateVendors',
  tokenScope: 'vendors:terminate',
  summary: 'Terminates vendor users by email (or, with dryRun, says what would happen)',
  tag: 'terminate-vendors',
  callers: 'employeeBrm',
  identityService: true,
  body: terminateVendorsBody,
  response: { 200: terminateVendorsResponse },
});

export const startTerminateJob = endpoint({
  ...brm,
  method: 'POST',
  path: api.terminateJobs,
  operationId: 'startTerminateJob',
  tokenScope: 'vendors:terminate',
  summary: 'Starts terminating vendor users by email as a background job the caller follows',
  identityService: true,
  body: terminateJobBody,
  response: { 200: terminateJobStarted },
});

export const terminateJob = endpoint({
  ...brm,
  method: 'GET',
  path: api.terminateJob,
  operationId: 'getTerminateJob',
  tokenScope: 'vendors:read',
  summary: "The progress and result lines of one of the caller's termination jobs",
  params: jobParam,
  query: terminateJobQuery,
  response: { 200: terminateJobView },
});

export const cancelTerminateJob = endpoint({
  ...brm,
  method: 'POST',
  path: api.terminateJobCancel,
  operationId: 'cancelTerminateJob',
  tokenScope: 'vendors:terminate',
  summary: "Stops one of the caller's termination jobs before its next account",
  params: jobParam,
  response: { 200: terminateJobStarted },
});
