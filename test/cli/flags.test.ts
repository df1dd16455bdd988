// A flag that several commands take is declared once (src/cli/flags.ts) and spread into each, so
// its type, default, bounds and text cannot drift apart (as --burst-replicas' min once did).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { parseErrorLine } from '../../src/cli/base.js';
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
 * command renders (built from one table by outputFlag), and the sandbox's --kubeconfig is the
 * file it writes, not the one a client reads.
 */
const NOT_SHARED: Record<string, readonly string[]> = { output: ['*'], kubeconfig: ['sandbox'] };

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
    expect(shared.map(([n]) => n)).toEqual(expect.arrayContaining(['kube-api-qps', 'kube-api-burst', 'workers', 'burst-replicas', 'kube-version', 'feature-gates', 'now', 'force', 'namespace', 'selector']));
    const drifted = shared.filter(([, uses]) => uses.some((u) => !sameDeclaration(u.flag, uses[0].flag))).map(([n, uses]) => `${n}: ${uses.map((u) => u.command).join(', ')}`);
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
      const err = await parse('0').then(() => null, (e: Error) => e);
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

  it('-o offers the formats a command renders, in the table order', () => {
    expect(outputFlag(['name', 'json', 'yaml', 'wide']).output.options).toEqual(['json', 'yaml', 'wide', 'name']);
    expect(outputFlag(['yaml', 'json']).output.options).toEqual(['json', 'yaml']);
  });
});
