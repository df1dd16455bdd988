// The code is typed through: no `as never` (which silences any mismatch, at client-node's edge as
// anywhere) in src/. A value of the wrong shape gets a type guard, the right client-node type or a
// narrower signature instead.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './imports.js';

const SRC = resolve(import.meta.dirname, '../../src');

/** The line of every `x as never` in `text` (read with the TypeScript parser: comments and strings do not count). */
function asNeverLines(fileName: string, text: string): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && node.type.kind === ts.SyntaxKind.NeverKeyword) lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

describe('no `as never` in src/', () => {
  it('finds the cast in code and not in comments or strings', () => {
    const text = "// x as never\nconst s = 'y as never';\nf(\n  a as never,\n  (b as unknown) as never,\n);\n";
    expect(asNeverLines('t.ts', text)).toEqual([4, 5]);
  });

  it('has no `as never` cast outside the folders not yet held to it', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.startsWith(join(SRC, 'cluster')))).toBe(true);
    const found = files.flatMap((f) => asNeverLines(f, readFileSync(f, 'utf8')).map((line) => `${relative(SRC, f)}:${line}`));
    expect(found).toEqual([]);
  });
});
