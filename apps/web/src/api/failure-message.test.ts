import { describe, expect, it } from 'vitest';
import { splitFieldPath } from './failure-message';

describe('splitFieldPath', () => {
  it('takes the API path off a field message and keeps the top-level field', () => {
    expect(splitFieldPath('domains.0: Not a domain')).toEqual({ field: 'domains', text: 'Not a domain' });
    expect(splitFieldPath('name: Required')).toEqual({ field: 'name', text: 'Required' });
  });

  it('leaves other messages whole', () => {
    expect(splitFieldPath('Note: the server is busy')).toEqual({
      field: undefined,
      text: 'Note: the server is busy',
    });
    expect(splitFieldPath('Too many requests')).toEqual({ field: undefined, text: 'Too many requests' });
  });
});
