import { endpoint } from '../endpoint';
import { api } from '../paths';
import { terminateVendorsBody, terminateVendorsResponse } from '../terminate-vendors';

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
