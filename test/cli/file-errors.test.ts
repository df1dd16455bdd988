// One formatter for file errors (src/errors.ts): every input path reads them one way.
import { describe, expect, it } from 'vitest';
import { fileParseError, fileReadError, NoObjectsError, pathNotFound, UserError, yamlParseError } from '../../src/errors.js';

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('file errors', () => {
  it("say kubectl's 'the path … does not exist' for a missing file, whatever Node said", () => {
    expect(pathNotFound('x.yaml').message).toBe('the path "x.yaml" does not exist');
    expect(fileReadError('x.yaml', errno('ENOENT', "ENOENT: no such file or directory, open 'x.yaml'")).message).toBe('the path "x.yaml" does not exist');
    expect(fileReadError('d/x.yaml', errno('ENOTDIR', 'ENOTDIR: not a directory')).message).toBe('the path "d/x.yaml" does not exist');
  });

  it("read 'error reading FILE: why' with Node's code and syscall left out", () => {
    expect(fileReadError('x.yaml', errno('EACCES', "EACCES: permission denied, open 'x.yaml'")).message).toBe('error reading x.yaml: permission denied');
    expect(fileReadError('dir', errno('EISDIR', 'EISDIR: illegal operation on a directory, read')).message).toBe('error reading dir: is a directory');
    expect(fileReadError('x.gz', errno('Z_DATA_ERROR', 'incorrect header check')).message).toBe('error reading x.gz: incorrect header check');
    expect(fileReadError('x', 'too large').message).toBe('error reading x: too large');
    const own = new UserError('already one line');
    expect(fileReadError('x', own)).toBe(own);
  });

  it("read 'error parsing FILE: reason (line N, column C)' on one line", () => {
    expect(fileParseError('snap.yaml', 'Pod a: metadata.uid is missing', { line: 3 }).message).toBe(
      'error parsing snap.yaml: Pod a: metadata.uid is missing (line 3)',
    );
    expect(fileParseError('snap.json', 'invalid JSON: x', { line: 1, column: 7 }).message).toBe('error parsing snap.json: invalid JSON: x (line 1, column 7)');
    expect(fileParseError('plan.yaml', 'empty').message).toBe('error parsing plan.yaml: empty');
    expect(fileParseError('x', 'first line:\n\n  excerpt\n  ^\n').message).toBe('error parsing x: first line');
  });

  it("make js-yaml's error one line, its reason and the position (1-based) in parentheses", () => {
    const e = {
      message: 'bad indentation of a mapping entry (3:2)\n\n 1 | a:\n 2 |   b: 1\n 3 |  c: 2\n------^',
      reason: 'bad indentation of a mapping entry',
      mark: { line: 2, column: 1 },
    };
    expect(yamlParseError('bad.yaml', e).message).toBe('error parsing bad.yaml: invalid YAML: bad indentation of a mapping entry (line 3, column 2)');
    expect(yamlParseError('bad.yaml', { message: 'first line\n\n  excerpt' }).message).toBe('error parsing bad.yaml: invalid YAML: first line');
  });

  it('no objects: named by the command that read them, as kubectl names its verb', () => {
    expect(new NoObjectsError(['empty.yaml']).forCommand('diff')).toBe('no objects passed to diff');
  });
});
