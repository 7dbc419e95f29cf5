import { describe, expect, it } from 'vitest';
import { describeRouteError } from './route-error';

describe('describeRouteError', () => {
  it('shows status and status text of a route error', () => {
    const routeError = { status: 404, statusText: 'Not Found', internal: true, data: 'x' };
    expect(describeRouteError(routeError)).toBe('404 Not Found');
  });
  it('shows the message of a thrown error', () => {
    expect(describeRouteError(new Error('Chunk failed'))).toBe('Chunk failed');
  });
  it('falls back to the unknown-error message', () => {
    expect(describeRouteError('weird')).toBe('An unknown error occurred');
  });
});
