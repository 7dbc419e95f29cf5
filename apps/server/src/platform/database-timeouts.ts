/** The pool's limits (ms): 503 within about 2 s when PostgreSQL hangs (docs/OPERATIONS.md). */
export const databaseTimeoutDefaults = {
  statementMs: 1_500,
  idleInTransactionMs: 5_000,
  connectionWaitMs: 1_000,
} as const;
