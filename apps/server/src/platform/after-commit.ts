import type { Kysely, Transaction } from 'kysely';

/**
 * Work to do once a transaction has committed, never when it rolls back: e.g. telling the SIEM
 * about an audit event. Collected on the transaction object itself, run by the wrapped
 * `transaction().execute()` after Kysely's COMMIT has succeeded.
 */
const pending = new WeakMap<object, Array<() => void>>();

/**
 * Runs `work` after `db`'s transaction commits; outside a transaction (an autocommitted
 * statement that has already succeeded) it runs at once. A transaction not started through
 * {@link runAfterCommits} (cannot happen for databases from openDatabase) also runs it at once.
 */
export function afterCommit(db: object, work: () => void): void {
  const list = pending.get(db);
  if (list) list.push(work);
  else work();
}

interface TransactionBuilderLike {
  execute<T>(callback: (tx: Transaction<unknown>) => Promise<T>): Promise<T>;
}

/** Wraps a builder so that its execute runs the collected work after COMMIT. */
function wrapBuilder<B extends object>(builder: B): B {
  return new Proxy(builder, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'execute') {
        return async <T>(callback: (tx: Transaction<unknown>) => Promise<T>) => {
          const work: Array<() => void> = [];
          const result = await (target as unknown as TransactionBuilderLike).execute(async (tx) => {
            pending.set(tx, work);
            return callback(tx);
          });
          for (const run of work) run();
          return result;
        };
      }
      if (typeof value !== 'function') return value;
      // setIsolationLevel / setAccessMode return a new builder: keep it wrapped.
      return (...args: unknown[]) => {
        const next: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return next && typeof next === 'object' && 'execute' in next ? wrapBuilder(next) : next;
      };
    },
  });
}

/** Makes every `db.transaction().execute()` run the work registered with afterCommit on commit. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database schema
export function runAfterCommits<D extends Kysely<any>>(db: D): D {
  const original = db.transaction.bind(db);
  Object.defineProperty(db, 'transaction', { value: () => wrapBuilder(original()) });
  return db;
}
