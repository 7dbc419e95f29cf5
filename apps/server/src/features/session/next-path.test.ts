import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

describe('safeNextPath', () => {
  it.each([
    ['/brm/pending-approvals', '/brm/pending-approvals'],
    ['/activate-account?code=ABC', '/activate-account?code=ABC'],
    ['/welcome#top', '/welcome#top'],
    // Encoded characters stay encoded: they cannot break out of the path.
    ['/%0d%0aSet-Cookie:x', '/%0d%0aSet-Cookie:x'],
    ['/a/../welcome', '/welcome'],
  ])('keeps the same-origin path %j as %j', (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });

  it.each([
    ['https://evil.example/welcome'],
    ['//evil.example/x'],
    ['/\\evil.example'],
    // Normalised, these read as another host: the check holds for what is sent on.
    ['/.//evil.example'],
    ['/a/..//evil.example/x'],
    ['/%2e//evil.example'],
    ['\\\\evil.example'],
    ['javascript:alert(1)'],
    ['welcome'],
    [''],
    [undefined],
    [['/a', '/b']],
    ['/\u0000x'],
    ['/\tx'],
    [`/${'a'.repeat(2001)}`],
  ])('turns %j into /welcome', (input) => {
    expect(safeNextPath(input)).toBe('/welcome');
  });
});
