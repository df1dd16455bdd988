// An unknown command, answered as kubectl (cobra) answers it (src/cli/unknown-command.ts).
import { describe, expect, it } from 'vitest';
import { helpSubject } from '../../src/cli/help.js';
import { flagsFirstMessage, levenshtein, suggestionsFor, unknownCommandMessage, visibleCommandNames } from '../../src/cli/unknown-command.js';

const NAMES = ['completion', 'diff', 'explain', 'history', 'reconcile', 'record', 'run', 'sandbox', 'version', 'watch'];

describe('suggestions, as cobra makes them', () => {
  it('measures the Levenshtein distance without regard to case', () => {
    expect(levenshtein('explian', 'explain')).toBe(2);
    expect(levenshtein('DIFF', 'diff')).toBe(0);
    expect(levenshtein('', 'run')).toBe(3);
    expect(levenshtein('kitten', 'sitting')).toBe(3);
  });

  it('suggests names within distance 2 or starting with what was typed, in name order', () => {
    expect(suggestionsFor('explian', NAMES)).toEqual(['explain']);
    expect(suggestionsFor('ex', NAMES)).toEqual(['explain']);
    expect(suggestionsFor('rec', NAMES)).toEqual(['reconcile', 'record', 'run']); // run: distance 2
    expect(suggestionsFor('rum', NAMES)).toEqual(['run']);
    expect(suggestionsFor('dif', NAMES)).toEqual(['diff']);
    expect(suggestionsFor('kubectl', NAMES)).toEqual([]);
  });
});

describe('the message', () => {
  it("is cobra's, with the suggestions and the usage pointer", () => {
    expect(unknownCommandMessage('explian', NAMES, 'kubectl rs-reconcile')).toBe(
      'error: unknown command "explian" for "kubectl rs-reconcile"\n\nDid you mean this?\n\texplain\n\nRun \'kubectl rs-reconcile --help\' for usage.\n',
    );
    expect(unknownCommandMessage('foo', NAMES, 'rs-reconcile')).toBe(
      'error: unknown command "foo" for "rs-reconcile"\nRun \'rs-reconcile --help\' for usage.\n',
    );
  });

  it('flags before the command: the unknown-flag line, and where the command goes when one follows', () => {
    expect(flagsFirstMessage(['-n', 'shop', 'diff'], NAMES, 'kubectl rs-reconcile')).toBe(
      "error: unknown shorthand flag: 'n' in -n (the command goes first: kubectl rs-reconcile diff -n shop)\nRun 'kubectl rs-reconcile --help' for usage.\n",
    );
    expect(flagsFirstMessage(['--foo=1'], NAMES, 'rs-reconcile')).toBe("error: unknown flag: --foo\nRun 'rs-reconcile --help' for usage.\n");
  });

  it('points to visible commands only', () => {
    expect(visibleCommandNames([{ id: 'diff' }, { id: 'secret', hidden: true }])).toEqual(['diff']);
  });
});

describe('the subject of help', () => {
  it('is the first word, past -h/--help/help; none when a flag comes first', () => {
    expect(helpSubject(['diff', '-h'])).toBe('diff');
    expect(helpSubject(['-h'])).toBeUndefined();
    expect(helpSubject(['help', 'diff'])).toBe('diff');
    expect(helpSubject(['--help', 'explian'])).toBe('explian');
    expect(helpSubject(['-n', 'shop', '-h'])).toBeUndefined();
  });
});
