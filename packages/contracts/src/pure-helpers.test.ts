// The browser build drops the schemas a page does not use only when it knows that building them
// has no side effects: `z.*` calls are declared pure in apps/web/vite.config.ts, and every function
// of this package that builds a schema at module level says so with `@__NO_SIDE_EFFECTS__`. This
// finds each such call and fails when its function lacks the annotation.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));
const ANNOTATION = '@__NO_SIDE_EFFECTS__';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sourceFiles(srcDir).map((path) => ({
  path: path.slice(srcDir.length),
  source: ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true),
}));

/** Each function declared at the top of a file: whether its leading comments carry the annotation. */
const declared = new Map<string, { file: string; annotated: boolean }>();
for (const { path, source } of files)
  for (const statement of source.statements)
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      const comments = ts.getLeadingCommentRanges(source.text, statement.pos) ?? [];
      const annotated = comments.some((c) => source.text.slice(c.pos, c.end).includes(ANNOTATION));
      declared.set(statement.name.text, { file: path, annotated });
    }

/** The names called while a file's top-level constants are built (not inside functions they define). */
function calledAtModuleLevel(source: ts.SourceFile): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) names.push(node.expression.text);
    ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) if (ts.isVariableStatement(statement)) visit(statement);
  return names;
}

describe('schema-building functions called at module level', () => {
  const calls = files.flatMap(({ path, source }) =>
    calledAtModuleLevel(source)
      .filter((name) => declared.has(name))
      .map((name) => ({ name, calledIn: path, ...declared.get(name)! })),
  );

  it('finds the ones this package builds its schemas with', () => {
    const names = new Set(calls.map((call) => call.name));
    for (const name of ['endpoint', 'pageOf', 'pageQuery', 'inputText', 'plainText'])
      expect(names).toContain(name);
  });

  it(`declares each of them ${ANNOTATION}`, () => {
    const missing = [...new Set(calls.filter((call) => !call.annotated).map((c) => `${c.name} (${c.file})`))];
    expect(missing).toEqual([]);
  });
});
