// The client-node edge is typed: calls into @kubernetes/client-node take its own request and model
// types, so no `as never` (which would silence any mismatch) sits in src/cluster.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CLUSTER = resolve(import.meta.dirname, '../../src/cluster');

/** Every `x as never` of a file, as "file:line" (read with the TypeScript parser: comments do not count). */
function asNever(file: string): string[] {
  const text = readFileSync(join(CLUSTER, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && node.type.kind === ts.SyntaxKind.NeverKeyword) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the client-node edge', () => {
  it('has no `as never` cast in src/cluster', () => {
    const files = readdirSync(CLUSTER).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(asNever)).toEqual([]);
  });
});
