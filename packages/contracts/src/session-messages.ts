// Plain strings with no zod behind them, so the web app's shared layout can use them without
// loading the schema library (session.ts re-exports them).

/** The spec's session texts (sections 9 and the message lists), word for word. */
export const sessionMessages = {
  extended: 'Session extended',
  extendFailed: 'Unexpected error occurred while extending session',
} as const;
