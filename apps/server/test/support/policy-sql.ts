import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
} from 'kysely';

/** A Kysely that only compiles (PostgreSQL's dialect), for reading the conditions policies build. */
const compiler = new Kysely<object>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** The SQL text and parameters of a policy's query condition. */
export function compiled(condition: RawBuilder<boolean>): { sql: string; parameters: readonly unknown[] } {
  const { sql, parameters } = condition.compile(compiler);
  return { sql, parameters };
}
