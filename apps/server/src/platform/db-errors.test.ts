import { describe, expect, it } from 'vitest';
import { endsConnection, isDatabaseUnavailable, unavailableReason } from './db-errors';

/** An error shaped as pg's DatabaseError: message, code and severity. */
function databaseError(message: string, code: string, severity: string): Error {
  return Object.assign(new Error(message), { code, severity });
}

describe('endsConnection', () => {
  it('is true for the server ending the connection, whatever the code', () => {
    expect(
      endsConnection(databaseError('terminating connection due to administrator command', '57P01', 'FATAL')),
    ).toBe(true);
    expect(
      endsConnection(
        databaseError('terminating connection due to idle-in-transaction timeout', '25P03', 'FATAL'),
      ),
    ).toBe(true);
    expect(endsConnection(databaseError('the database system is shutting down', '57P03', 'FATAL'))).toBe(
      true,
    );
    expect(endsConnection(databaseError('some future reason', 'XX999', 'PANIC'))).toBe(true);
  });

  it('is true for a connection lost or given up on', () => {
    expect(endsConnection(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(endsConnection(new Error('Query read timeout'))).toBe(true);
    expect(endsConnection(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      true,
    );
    expect(endsConnection(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(endsConnection(databaseError('connection failure', '08006', 'ERROR'))).toBe(true);
  });

  it('is false where the connection stays usable: a timeout, a lock refusal, a bad statement', () => {
    expect(
      endsConnection(databaseError('canceling statement due to statement timeout', '57014', 'ERROR')),
    ).toBe(false);
    expect(endsConnection(databaseError('could not obtain lock on row', '55P03', 'ERROR'))).toBe(false);
    expect(endsConnection(databaseError('duplicate key value', '23505', 'ERROR'))).toBe(false);
    expect(endsConnection('Connection terminated')).toBe(false);
    expect(endsConnection(null)).toBe(false);
  });
});

describe('unavailableReason', () => {
  it('names the code or pg’s phrase, looking into causes and aggregates', () => {
    expect(unavailableReason(databaseError('terminating connection', '57P01', 'FATAL'))).toBe('57P01');
    expect(
      unavailableReason(new Error('x', { cause: new Error('Connection terminated unexpectedly') })),
    ).toBe('Connection terminated');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(unavailableReason(new AggregateError([new Error('other'), refused]))).toBe('ECONNREFUSED');
    expect(isDatabaseUnavailable(databaseError('duplicate key value', '23505', 'ERROR'))).toBe(false);
  });
});
