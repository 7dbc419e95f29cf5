import { describe, expect, it } from 'vitest';
import { OutageLog } from './outage-log';

function recorder() {
  const lines: [string, object, string][] = [];
  return {
    lines,
    log: {
      info: (fields: object, message: string) => void lines.push(['info', fields, message]),
      error: (fields: object, message: string) => void lines.push(['error', fields, message]),
      warn: (fields: object, message: string) => void lines.push(['warn', fields, message]),
    },
  };
}

describe('OutageLog', () => {
  it('says the first failure at once, then one line per interval with the count in between', () => {
    let now = 0;
    const outage = new OutageLog('database unavailable', 10_000, () => now);
    const { lines, log } = recorder();
    outage.failed(log, 'ECONNREFUSED');
    outage.failed(log, 'ECONNREFUSED');
    now = 9_999;
    outage.failed(log, '57P01');
    now = 10_000;
    outage.failed(log, '57P01');
    expect(lines).toEqual([
      ['error', { reason: 'ECONNREFUSED', moreSinceLastLine: 0 }, 'database unavailable'],
      ['error', { reason: '57P01', moreSinceLastLine: 2 }, 'database unavailable'],
    ]);
  });

  it('says the end once, with what was not said yet, and starts afresh after it', () => {
    let now = 0;
    const outage = new OutageLog('database unavailable', 10_000, () => now);
    const { lines, log } = recorder();
    outage.recovered(log, 'back');
    expect(lines).toEqual([]);
    outage.failed(log, 'ECONNREFUSED');
    outage.failed(log, 'ECONNREFUSED');
    outage.recovered(log, 'back');
    outage.recovered(log, 'back');
    now = 1_000;
    outage.failed(log, 'ETIMEDOUT');
    expect(lines).toEqual([
      ['error', { reason: 'ECONNREFUSED', moreSinceLastLine: 0 }, 'database unavailable'],
      ['info', { moreSinceLastLine: 1 }, 'back'],
      ['error', { reason: 'ETIMEDOUT', moreSinceLastLine: 0 }, 'database unavailable'],
    ]);
  });

  it('writes at the level it was made with', () => {
    const overload = new OutageLog('pool busy', 10_000, () => 0, 'warn');
    const { lines, log } = recorder();
    overload.failed(log, 'pool connection wait');
    expect(lines).toEqual([['warn', { reason: 'pool connection wait', moreSinceLastLine: 0 }, 'pool busy']]);
  });
});
