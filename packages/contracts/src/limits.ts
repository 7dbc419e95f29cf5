// Plain constants with no zod behind them, so the web app's first page can import them without
// loading the schema library.

/** Longest client-log message accepted; longer bodies are refused with 413. */
export const CLIENT_LOG_MAX_CHARS = 2000;
