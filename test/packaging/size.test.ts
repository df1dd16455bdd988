// The size rule of issue 21: no file in src/ over 600 lines unless it says in its first lines
// that it is generated, and no function over 80 lines from its first line to its closing brace
// (a nested function counted on its own, and within its parent too). Functions are found with
// the TypeScript parser: methods, accessors, constructors, arrow functions and function
// expressions alike, whatever their layout.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;
/** A file is generated when one of these first lines says so (its generator, not a person, shapes it). */
const GENERATED_HEADER_LINES = 5;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Lines as `wc -l` counts them: a last line without its newline counts too. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

function isGenerated(text: string): boolean {
  return /generated/i.test(text.split('\n').slice(0, GENERATED_HEADER_LINES).join('\n'));
}

/** The name a reader looks for: the function's own, else what it is assigned to, else `<anonymous>`. */
function functionName(node: ts.SignatureDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText();
  return '<anonymous>';
}

/** `file: N lines` and `file:line name: N lines` for every file and function over the limits. */
function sizeViolations(fileName: string, text: string): string[] {
  const out: string[] = [];
  const lines = lineCount(text);
  if (lines > MAX_FILE_LINES && !isGenerated(text)) out.push(`${fileName}: ${lines} lines (over ${MAX_FILE_LINES})`);
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = last - first + 1;
      if (length > MAX_FUNCTION_LINES) out.push(`${fileName}:${first + 1} ${functionName(node)}: ${length} lines (over ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** A function of `bodyLines` statements, its closing brace on the last line: bodyLines + 2 lines in all. */
function fn(header: string, bodyLines: number): string {
  return [`${header} {`, ...Array.from({ length: bodyLines }, (_, i) => `  void ${i};`), '}'].join('\n');
}

describe('size rule: the measure', () => {
  it('flags a function of 81 lines and passes one of 80, naming each the way a reader finds it', () => {
    const text = [
      fn('function fits()', 78),
      fn('function tooLong()', 79),
      `const arrow = () =>${fn('', 79)}`,
      `class Pool {\n${fn('  drain()', 79)}\n}`,
      `export default ${fn('function ()', 79)}`,
    ].join('\n');
    expect(sizeViolations('mem.ts', text)).toEqual([
      'mem.ts:81 tooLong: 81 lines (over 80)',
      'mem.ts:162 arrow: 81 lines (over 80)',
      'mem.ts:244 drain: 81 lines (over 80)',
      'mem.ts:326 <anonymous>: 81 lines (over 80)',
    ]);
  });

  it('counts a nested function on its own, and its parent with it', () => {
    const inner = fn('  const inner = function ()', 79).split('\n');
    const text = ['function outer() {', ...inner, '}'].join('\n');
    expect(sizeViolations('nested.ts', text)).toEqual(['nested.ts:1 outer: 83 lines (over 80)', 'nested.ts:2 inner: 81 lines (over 80)']);
  });

  it('reads .tsx: a component over 80 lines is flagged', () => {
    const text = fn('export function Pane(): JSX.Element', 78).replace('  void 0;', '  return <Box>{`x`}</Box>;');
    expect(sizeViolations('Pane.tsx', `${text}\n${fn('function Long()', 79)}`)).toEqual(['Pane.tsx:81 Long: 81 lines (over 80)']);
  });

  it('flags a file of 601 lines, not one of 600, and not a generated one (header in its first 5 lines)', () => {
    const of = (n: number, head = '') => `${head}${'x;\n'.repeat(n - lineCount(head))}`;
    expect(sizeViolations('600.ts', of(600))).toEqual([]);
    expect(sizeViolations('601.ts', of(601))).toEqual(['601.ts: 601 lines (over 600)']);
    expect(sizeViolations('gen.ts', of(601, '// a\n// b\n// c\n// d\n// GENERATED FILE: do not edit\n'))).toEqual([]);
    expect(sizeViolations('late.ts', of(601, '// a\n// b\n// c\n// d\n// e\n// generated\n'))).toEqual(['late.ts: 601 lines (over 600)']);
  });
});

describe('size rule: src/', () => {
  it('has no file over 600 lines (generated ones aside) and no function over 80 lines', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const violations = files.flatMap((f) => sizeViolations(relative(ROOT, f), readFileSync(f, 'utf8')));
    expect(violations.join('\n')).toBe('');
  });
});
