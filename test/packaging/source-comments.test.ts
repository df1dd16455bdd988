// A comment in src/ says what must stay true; the issue a change came from is written in docs/
// (beside the measurements behind it), not in the code. Comments are read with the TypeScript
// parser: an issue named in a string (a message, a fixture) does not count.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './imports.js';

const SRC = resolve(import.meta.dirname, '../../src');
/** "issue 13", "issues 20 and 21", "issue #7": the project's issues. An upstream one is named by its repository (kubernetes#131821). */
const ISSUE = /\bissues?\s+#?\d+/i;

/** Every comment of a source file, with its line. */
function commentsOf(fileName: string, text: string): { line: number; text: string }[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Map<number, { line: number; text: string }>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, { line: sf.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.getEnd()));
    // `{/* … */}` in JSX: a comment with no node after it
    if (ts.isJsxExpression(node) && !node.expression) add(ts.getTrailingCommentRanges(text, node.getStart(sf) + 1));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...seen.values()];
}

describe('comments in src/', () => {
  it('finds an issue named in a comment and not in code or strings', () => {
    const text = "// see issue 13\nconst a = 'issue 14';\n/** as issue #15 asked */\nconst b = <div>{/* issues 16 and 17 */}</div>; // kubernetes#131821\n";
    const found = commentsOf('t.tsx', text).filter((c) => ISSUE.test(c.text));
    expect(found.map((c) => c.line).sort()).toEqual([1, 3, 4]);
    expect(commentsOf('t.tsx', text).some((c) => c.text.includes('kubernetes#131821'))).toBe(true);
  });

  it('names no issue outside the folders not yet held to it', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) =>
      commentsOf(f, readFileSync(f, 'utf8'))
        .filter((c) => ISSUE.test(c.text))
        .map((c) => `${relative(SRC, f)}:${c.line}: ${c.text.match(ISSUE)![0]}`),
    );
    expect(found).toEqual([]);
  });
});
