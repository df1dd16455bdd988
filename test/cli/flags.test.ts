// A flag that several commands take is declared once (src/cli/flags.ts) and spread into each, so
// its type, default, bounds and text cannot drift apart (as --burst-replicas' min once did).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { acceptedValues, flagErrorLine, parseErrorLine, type ArgDef, type FlagDef } from '../../src/cli/base.js';
import { behaviourFlags, inHelpGroup, outputFlag } from '../../src/cli/flags.js';

const COMMANDS = join(import.meta.dirname, '../../src/commands');

type FlagDecl = Record<string, unknown>;

async function commandFlags(): Promise<Map<string, Record<string, FlagDecl>>> {
  const out = new Map<string, Record<string, FlagDecl>>();
  for (const f of readdirSync(COMMANDS).filter((x) => x.endsWith('.ts'))) {
    const mod = (await import(join(COMMANDS, f))) as { default: { flags?: Record<string, FlagDecl> } };
    out.set(f.replace(/\.ts$/, ''), mod.default.flags ?? {});
  }
  return out;
}

/**
 * Flags with a name in common that are not one declaration, on purpose: -o lists the formats each
 * command renders (built from one table by outputFlag), the sandbox's --kubeconfig is the
 * file it writes, not the one a client reads, its --audit-log the log it writes, not the
 * one `history` reads, and record's --timeout how long it records, not how long a controller
 * may take to be in sync.
 */
// record's --output-file is the recording it writes (-o there, required, .gz compressed);
// history's says where the output of its -o goes
const NOT_SHARED: Record<string, readonly string[]> = {
  output: ['*'],
  kubeconfig: ['sandbox'],
  'audit-log': ['sandbox'],
  timeout: ['record'],
  'output-file': ['record'],
};

/** Same declaration: every property but the help heading is the very same value (parse included). */
function sameDeclaration(a: FlagDecl, b: FlagDecl): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => k !== 'helpGroup'));
  return [...keys].every((k) => a[k] === b[k]);
}

describe('shared flags', () => {
  it('every flag of more than one command is one declaration', async () => {
    const byName = new Map<string, { command: string; flag: FlagDecl }[]>();
    for (const [command, flags] of await commandFlags()) {
      for (const [name, flag] of Object.entries(flags)) {
        const skip = NOT_SHARED[name];
        if (skip && (skip.includes('*') || skip.includes(command))) continue;
        byName.set(name, [...(byName.get(name) ?? []), { command, flag }]);
      }
    }
    const shared = [...byName].filter(([, uses]) => uses.length > 1);
    // the flags this rule is about are all there
    expect(shared.map(([n]) => n)).toEqual(
      expect.arrayContaining([
        'kube-api-qps',
        'kube-api-burst',
        'workers',
        'burst-replicas',
        'kube-version',
        'feature-gates',
        'now',
        'force',
        'namespace',
        'selector',
      ]),
    );
    const drifted = shared
      .filter(([, uses]) => uses.some((u) => !sameDeclaration(u.flag, uses[0].flag)))
      .map(([n, uses]) => `${n}: ${uses.map((u) => u.command).join(', ')}`);
    expect(drifted).toEqual([]);
  });

  it('tells a second declaration with the same text from the shared one', () => {
    const again = { ...behaviourFlags['burst-replicas'], parse: async (s: string) => Number(s) };
    expect(sameDeclaration(again as FlagDecl, behaviourFlags['burst-replicas'] as FlagDecl)).toBe(false);
    expect(sameDeclaration(inHelpGroup('WHAT-IF', behaviourFlags)['burst-replicas'] as FlagDecl, behaviourFlags['burst-replicas'] as FlagDecl)).toBe(true);
  });

  it('--burst-replicas is at least 1 in every command: 0 would make a sync that never creates or deletes', async () => {
    const takers = [...(await commandFlags())].filter(([, flags]) => flags['burst-replicas']);
    expect(takers.map(([c]) => c).sort()).toEqual(['diff', 'explain', 'reconcile', 'run', 'watch']);
    for (const [command, flags] of takers) {
      const parse = (v: string) => Parser.parse(['--burst-replicas', v], { flags: { 'burst-replicas': flags['burst-replicas'] } as never, strict: true });
      const err = await parse('0').then(
        () => null,
        (e: Error) => e,
      );
      expect(err, command).toBeInstanceOf(Error);
      // what the user reads: the reason on the same line as the flag
      expect(parseErrorLine(err!.message)).toBe('Parsing --burst-replicas: Expected an integer greater than or equal to 1 but received: 0');
      await expect(parse('1'), command).resolves.toMatchObject({ flags: { 'burst-replicas': 1 } });
    }
  });

  it('an oclif parse error is one line: the reason joined to the flag, its own help line dropped', () => {
    expect(parseErrorLine('Nonexistent flag: --nope\nSee more help with --help')).toBe('Nonexistent flag: --nope');
    expect(parseErrorLine('Missing 1 required arg:\nname  the controller\nSee more help with --help')).toBe('Missing 1 required arg: name  the controller');
    expect(parseErrorLine('Error: Expected --output=xml to be one of: json, yaml')).toBe('Expected --output=xml to be one of: json, yaml');
  });

  it('-o offers the formats that the views of the command draw, in the table order', () => {
    expect(outputFlag(['names', 'document', 'human', 'wide']).output.options).toEqual(['json', 'yaml', 'wide', 'name']);
    expect(outputFlag(['human', 'document']).output.options).toEqual(['json', 'yaml']);
    expect(outputFlag(['document', 'human', 'wide', 'page']).output.options).toEqual(['json', 'yaml', 'wide', 'html']);
    // a page script without a document draws nothing: html needs both
    expect(outputFlag(['human', 'page']).output.options).toEqual([]);
  });
});

/** What the user reads for these words given to a command: the error line of its parse failure. */
async function errorOf(command: string, argv: string[]): Promise<string> {
  const cmd = (
    (await import(join(COMMANDS, `${command}.ts`))) as { default: { flags?: Record<string, FlagDef>; args?: Record<string, ArgDef>; strict?: boolean } }
  ).default;
  const err = await Parser.parse(argv, { flags: cmd.flags as never, args: (cmd.args ?? {}) as never, strict: cmd.strict !== false }).then(
    () => null,
    (e: Error) => e,
  );
  if (!err) throw new Error(`${command} ${argv.join(' ')} parsed`);
  return flagErrorLine(err, cmd.flags ?? {}, cmd.args ?? {});
}

describe("flag errors in kubectl's words", () => {
  it('a bad number names the flag, the value and the whole numbers accepted', async () => {
    for (const v of ['abc', '-1', '2.5'])
      expect(await errorOf('diff', ['--replicas', v]), v).toBe(`invalid argument "${v}" for "--replicas" flag: expected a whole number ≥ 0`);
    expect(await errorOf('diff', ['--replicas=x'])).toBe('invalid argument "x" for "--replicas" flag: expected a whole number ≥ 0');
    expect(await errorOf('diff', ['--burst-replicas', '0'])).toBe('invalid argument "0" for "--burst-replicas" flag: expected a whole number ≥ 1');
    expect(await errorOf('sandbox', ['--port', '70000'])).toBe('invalid argument "70000" for "--port" flag: expected a whole number from 0 to 65535');
    expect(await errorOf('run', ['-v', 'x'])).toBe('invalid argument "x" for "-v, --v" flag: expected a whole number ≥ 0');
  });

  it('a value outside the options names both forms of the flag and the options', async () => {
    expect(await errorOf('diff', ['-o', 'xml'])).toBe('invalid argument "xml" for "-o, --output" flag: expected one of json, yaml, wide, name');
    expect(await errorOf('explain', ['web', '--output=wide'])).toBe('invalid argument "wide" for "-o, --output" flag: expected one of json, yaml, html');
    expect(await errorOf('reconcile', ['--dry-run', 'maybe'])).toBe('invalid argument "maybe" for "--dry-run" flag: expected one of none, client, server');
  });

  it('unknown flags and missing values are told as kubectl tells them', async () => {
    expect(await errorOf('diff', ['--foo'])).toBe('unknown flag: --foo');
    expect(await errorOf('diff', ['--foo=1', '--bar'])).toBe('unknown flag: --foo (and --bar)');
    expect(await errorOf('diff', ['-x'])).toBe("unknown shorthand flag: 'x' in -x");
    expect(await errorOf('diff', ['--replicas'])).toBe('flag needs an argument: --replicas');
  });

  it('a missing or wrong argument is named, with what it takes', async () => {
    expect(await errorOf('explain', [])).toBe(
      "missing argument NAME (a controller (NAME, rs/NAME, replicaset/NAME or rc/NAME), a Deployment's ReplicaSets (deploy/NAME) or a pod (pod/NAME, po/NAME); or the TYPE of kubectl's TYPE NAME (rs web))",
    );
    expect(await errorOf('completion', [])).toBe('missing argument SHELL (one of bash, zsh, fish, kubectl)');
    expect(await errorOf('completion', ['tcsh'])).toBe('invalid argument "tcsh" for SHELL: expected one of bash, zsh, fish, kubectl');
    expect(await errorOf('explain', ['rs', 'a', 'b'])).toBe('unexpected argument: b');
  });

  it('says in words what a flag accepts', () => {
    expect(acceptedValues({ type: 'option', options: ['a', 'b'] })).toBe('one of a, b');
    expect(acceptedValues({ type: 'option', min: 1 })).toBe('a whole number ≥ 1');
    expect(acceptedValues({ type: 'option', max: 9 })).toBe('a whole number ≤ 9');
    expect(acceptedValues({ type: 'option' })).toBeUndefined();
    expect(acceptedValues(undefined)).toBeUndefined();
  });

  it('explain takes no -l (its NAME chooses) but -A (it looks for the NAME in every namespace)', async () => {
    expect(await errorOf('explain', ['web', '-l', 'app=web'])).toBe("unknown shorthand flag: 'l' in -l");
    expect(await errorOf('explain', ['web', '--selector', 'app=web'])).toBe('unknown flag: --selector');
    await expect(
      Parser.parse(['web', '-A'], {
        flags: (await import(join(COMMANDS, 'explain.ts'))).default.flags,
        args: (await import(join(COMMANDS, 'explain.ts'))).default.args,
        strict: true,
      }),
    ).resolves.toMatchObject({ flags: { 'all-namespaces': true } });
  });
});
