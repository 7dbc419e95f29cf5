import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { ConfigError, loadConfigFromEnvironment } from '../../config';
import { cliActor } from './actor';
import { commands, UsageError, type Command } from './cli-commands';
import { AppError } from '../../platform/app-error';
import { migrateToLatest, openDatabase } from '../../platform/db';

/**
 * The operators' command line: `npm run admin -- <command>` from the sources, or
 * `node apps/server/dist/admin.js <command>` in a deployment. It works on DATABASE_URL, or on the
 * embedded database in DATA_DIR (stop the server first: the embedded database has one writer).
 * Exit codes: 0 done, 1 refused (the message says why), 2 bad usage, 3 cannot start
 * (configuration or database).
 */

const EXIT = { ok: 0, refused: 1, usage: 2, cannotStart: 3 } as const;

function commandHelp(name: string, command: Command): string {
  const options = Object.entries(command.options).map(
    ([option, spec]) => `  --${option}${spec.type === 'string' ? ' <value>' : ''}  ${spec.help}`,
  );
  return [
    `${command.summary}.`,
    '',
    `Usage: admin ${command.usage}`,
    ...(options.length ? ['', 'Options:', ...options] : []),
    '  --help  this text',
    '',
  ].join('\n');
}

function overview(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  return [
    'PRA Portal administration. Usage: admin <command> [arguments] [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    "admin <command> --help shows a command's arguments and options.",
    'It uses DATABASE_URL, or the embedded database in DATA_DIR (stop the server first).',
    '',
  ].join('\n');
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs one command line; returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stdout.write(overview());
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${overview()}`);
    return EXIT.usage;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { ...command.options, help: { type: 'boolean' } },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${commandHelp(name, command)}`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    process.stdout.write(commandHelp(name, command));
    return EXIT.ok;
  }
  if (parsed.positionals.length !== command.args.length) {
    process.stderr.write(
      `admin ${name} takes ${command.args.map((a) => `<${a}>`).join(' ') || 'no arguments'}.\n\n${commandHelp(name, command)}`,
    );
    return EXIT.usage;
  }
  let database;
  let config;
  try {
    config = loadConfigFromEnvironment('admin');
    database = await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.DATABASE_URL ? undefined : resolve(config.DATA_DIR, 'db'),
      poolSize: 2,
    });
    // Each migration applied is reported: `migrate`'s output, and for the other commands on
    // stderr, where it stays apart from what they print (an audit export on stdout).
    const report = name === 'migrate' ? process.stdout : process.stderr;
    await migrateToLatest(database.db, { info: (_fields, message) => report.write(`${message}\n`) });
  } catch (error) {
    await database?.close();
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : `Cannot open the database: ${(error as Error).message}`}\n`,
    );
    return EXIT.cannotStart;
  }
  try {
    await command.run(
      { db: database.db, config, actor: cliActor(), out: (text) => process.stdout.write(text), readStdin },
      parsed.positionals,
      parsed.values,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${commandHelp(name, command)}`);
      return EXIT.usage;
    }
    if (error instanceof AppError) {
      process.stderr.write(`${error.list?.join('\n') ?? error.message}\n`);
      return EXIT.refused;
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      process.stderr.write(`${(error as Error).message}\n`);
      return EXIT.refused;
    }
    process.stderr.write(`admin ${name} failed: ${(error as Error).message}\n`);
    return EXIT.refused;
  } finally {
    await database.close();
  }
}
