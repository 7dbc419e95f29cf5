import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

describe('safeNextPath', () => {
  it('keeps same-origin paths with their query', () => {
    expect(safeNextPath('/brm/pending-approvals')).toBe('/brm/pending-approvals');
    expect(safeNextPath('/activate-account?code=ABC')).toBe('/activate-account?code=ABC');
  });
  it.each([
    ['https://evil.example/welcome'],
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['javascript:alert(1)'],
    ['welcome'],
    [''],
    [undefined],
    [['/a', '/b']],
    ['/\u0000x'],
    ['/%0d%0aSet-Cookie:x'],
  ])('turns %j into /welcome unless it is a plain path', (input) => {
    const result = safeNextPath(input);
    expect(result.startsWith('/')).toBe(true);
    expect(result.startsWith('//')).toBe(false);
    if (
      typeof input !== 'string' ||
      !input.startsWith('/') ||
      input.startsWith('//') ||
      input.includes('\\') ||
      input.includes('\u0000')
    ) {
      expect(result).toBe('/welcome');
    }
  });
});
