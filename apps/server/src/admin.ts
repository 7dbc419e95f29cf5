import { runCli } from './features/administration/cli';

/** Entry point of the operators' command line (see features/administration/cli.ts). */
runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`admin failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
