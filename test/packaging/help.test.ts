// kubectl-like --help (src/cli/help.ts) and kubectl's flags on every command that needs them.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '@oclif/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { displayName, flagSignature, flagText, formatCommandHelp, usageOf } from '../../src/cli/help.js';
import { ROOT, RUN_JS, ensureBundle, node, tempDir } from './helpers.js';

beforeAll(() => ensureBundle(), 300_000);

const manifest = () => JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, Command.Loadable> };

/** Runs the CLI through a symlink with the given program name, as PATH lookups do. */
function runAs(program: string, args: string[], env: Record<string, string> = {}) {
  const dir = tempDir('rs-help-');
  mkdirSync(join(dir, 'bin'));
  symlinkSync(RUN_JS, join(dir, 'bin', program));
  return node(join(dir, 'bin', program), args, env);
}

describe('the display name', () => {
  it('is "kubectl rs-reconcile" for the kubectl-rs_reconcile executable or the krew launcher', () => {
    expect(displayName('/usr/local/bin/kubectl-rs_reconcile', {})).toBe('kubectl rs-reconcile');
    expect(displayName('/x/lib/run.js', { RS_RECONCILE_INVOKED_AS: 'kubectl-rs_reconcile' })).toBe('kubectl rs-reconcile');
    expect(displayName('/usr/local/bin/rs-reconcile', {})).toBe('rs-reconcile');
    expect(displayName('/repo/bin/run.js', {}, () => 'bash')).toBe('rs-reconcile');
  });

  it('is "kubectl rs-reconcile" when kubectl started us under another name (a Windows shim runs bin/run.js)', () => {
    expect(displayName('C:\\npm\\kubectl-rs_reconcile.cmd', {}, () => undefined)).toBe('kubectl rs-reconcile');
    expect(displayName('/x/lib/node_modules/rs-reconcile/bin/run.js', {}, () => 'kubectl')).toBe('kubectl rs-reconcile');
    expect(displayName('/x/lib/node_modules/rs-reconcile/bin/run.js', {}, () => 'zsh')).toBe('rs-reconcile');
    // a name the user typed wins over the parent
    expect(displayName('/usr/local/bin/rs-reconcile', {}, () => 'kubectl')).toBe('rs-reconcile');
  });
});

describe('parse errors', () => {
  it('are one line naming the flag, the value and what is accepted, then the hint under the name the user ran', () => {
    const plugin = runAs('kubectl-rs_reconcile', ['diff', '-f', join(ROOT, 'examples'), '--replicas', 'abc']);
    expect(plugin.status).toBe(2);
    expect(plugin.stderr).toBe(
      'error: invalid argument "abc" for "--replicas" flag: expected a whole number ≥ 0\nSee \'kubectl rs-reconcile diff --help\' for usage.\n',
    );
    expect(plugin.stdout).toBe('');
    const direct = runAs('rs-reconcile', ['diff', '--foo']);
    expect(direct.status).toBe(2);
    expect(direct.stderr).toBe("error: unknown flag: --foo\nSee 'rs-reconcile diff --help' for usage.\n");
    const krew = node(RUN_JS, ['explain'], { RS_RECONCILE_INVOKED_AS: 'kubectl-rs_reconcile' });
    expect(krew.status).toBe(2);
    expect(krew.stderr).toBe(
      `error: missing argument NAME (a controller (NAME, rs/NAME, replicaset/NAME or rc/NAME), a Deployment's ReplicaSets (deploy/NAME) or a pod (pod/NAME, po/NAME); or the TYPE of kubectl's TYPE NAME (rs web))\nSee 'kubectl rs-reconcile explain --help' for usage.\n`,
    );
  });
});

describe('kubectl-style help', () => {
  it('prints Usage: kubectl rs-reconcile diff [NAME...] [flags] when run as the plugin', () => {
    const r = runAs('kubectl-rs_reconcile', ['diff', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage:\n  kubectl rs-reconcile diff [NAME...] [flags]');
    expect(r.stdout).toContain(
      'Examples:\n  # Audit a saved snapshot\n  kubectl get rs,rc,pods -A -o yaml > snap.yaml\n  kubectl rs-reconcile diff -f snap.yaml -A',
    );
    expect(r.stdout).toMatch(/Options:\n {4}-A, --all-namespaces=false:\n {8}Every namespace\./);
    expect(r.stdout).toContain("    -o, --output='':\n        Output format. One of: json|yaml|wide|name.");
    expect(r.stdout).toContain('    --burst-replicas=500:');
    expect(r.stdout).toContain('Cluster connection options:\n    --as=');
    expect(r.stdout).not.toContain('<%=');
    expect(r.stdout).toContain('Global options:\n    --debug=false:'); // every error points to it
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Use "kubectl rs-reconcile --help" for a list of commands.');
  });

  it('names the program as typed otherwise', () => {
    const r = runAs('rs-reconcile', ['explain', '--help']);
    expect(r.stdout).toContain('Usage:\n  rs-reconcile explain NAME [flags]');
    const direct = node(RUN_JS, ['--help']);
    expect(direct.stdout).toContain('Usage:\n  rs-reconcile [command] [flags]');
  });

  it('lists every visible command in the root help, grouped, with the pointer line', () => {
    const r = runAs('kubectl-rs_reconcile', ['--help']);
    expect(r.status).toBe(0);
    for (const [id, cmd] of Object.entries(manifest().commands)) {
      if (cmd.hidden) continue;
      expect(r.stdout, id).toMatch(new RegExp(`^  ${id} +\\S`, 'm'));
    }
    expect(r.stdout).toContain('Explain and audit (read-only):');
    // history and record, the past of a cluster, in a group of their own: not among "Other commands"
    expect(r.stdout).toMatch(/\nTell what the controller did \(read-only\):\n {2}history +\S[^\n]*\n(?: {15}[^\n]*\n)* {2}record +\S/);
    expect(r.stdout.slice(r.stdout.indexOf('Other commands:'))).not.toMatch(/^ {2}(history|record) /m);
    expect(r.stdout).toContain('Use "kubectl rs-reconcile <command> --help" for more information about a given command.');
    // no arguments at all: the same root help
    expect(runAs('kubectl-rs_reconcile', []).stdout).toBe(r.stdout);
  });

  it('renders usage, flag headings and texts as kubectl does', () => {
    const m = manifest().commands;
    expect(usageOf(m.diff)).toBe('diff [NAME...] [flags]');
    expect(usageOf(m.explain)).toBe('explain NAME [flags]');
    expect(usageOf(m.version)).toBe('version [flags]');
    expect(usageOf(m.completion)).toBe('completion SHELL [flags]');
    expect(flagSignature(m.diff.flags.filename)).toBe('-f, --filename=[]:');
    expect(flagSignature(m.diff.flags['no-headers'])).toBe('--no-headers=false:');
    expect(flagSignature(m.reconcile.flags['dry-run'])).toBe("--dry-run='none':");
    expect(flagText(m.diff.flags['as-group'])).toBe('Group to impersonate for the operation (repeatable).');
    const text = formatCommandHelp(m.diff, 'kubectl rs-reconcile', 80);
    const flagLines = text.split('\n').filter((l) => /^ {8}\S/.test(l));
    expect(flagLines.length).toBeGreaterThan(20);
    for (const line of flagLines) expect(line.length, line).toBeLessThanOrEqual(80); // wrapped to the width
  });
});

describe("kubectl's flags and conventions", () => {
  const CLUSTER_COMMANDS = ['diff', 'explain', 'reconcile', 'run', 'watch'];
  const TABLE_COMMANDS = ['diff', 'reconcile'];

  it('every command that talks to a cluster takes the connection and scope flags', () => {
    const m = manifest().commands;
    for (const id of CLUSTER_COMMANDS) {
      const flags = m[id].flags;
      for (const name of ['kubeconfig', 'context', 'cluster', 'user', 'as', 'as-group', 'request-timeout'])
        expect(flags[name], `${id} --${name}`).toBeDefined();
      expect(flags.namespace?.char, `${id} -n`).toBe('n');
      expect(flags['all-namespaces']?.char, `${id} -A`).toBe('A');
      // explain is about one NAME: no selector chooses for it
      if (id === 'explain') expect(flags.selector, `${id} -l`).toBeUndefined();
      else expect(flags.selector?.char, `${id} -l`).toBe('l');
      expect(flags['as-group'].type === 'option' && flags['as-group'].multiple).toBe(true);
    }
  });

  it('every command that prints tables takes -o json|yaml|wide|name and --no-headers', () => {
    const m = manifest().commands;
    for (const id of TABLE_COMMANDS) {
      const out = m[id].flags.output;
      expect(out?.char, id).toBe('o');
      expect(out?.type === 'option' ? [...(out.options ?? [])].sort() : [], id).toEqual(['json', 'name', 'wide', 'yaml']);
      expect(m[id].flags['no-headers']?.type, id).toBe('boolean');
    }
  });

  it('reconcile -o name prints the controllers it would sync, -o wide the wide table', () => {
    const ex = join(ROOT, 'examples', 'drifted-replicaset.yaml');
    const name = node(RUN_JS, ['reconcile', '-f', ex, '--dry-run=client', '-o', 'name']);
    expect(name.stdout).toBe('replicaset.apps/shop-web\n');
    expect(name.status).toBe(0);
    const wide = node(RUN_JS, ['reconcile', '-f', ex, '--dry-run=client', '-o', 'wide']);
    expect(wide.stdout).toMatch(/READY/);
    const plain = node(RUN_JS, ['reconcile', '-f', ex, '--dry-run=client']);
    expect(plain.stdout).not.toMatch(/READY/);
  });

  it('rejects --burst-replicas 0 in every command that takes it, saying why on the one line', () => {
    for (const cmd of ['diff', 'explain', 'reconcile', 'run', 'watch']) {
      const input = cmd === 'run' ? [] : ['-f', join(ROOT, 'examples')]; // run reads only a cluster
      const r = node(RUN_JS, [cmd, ...(cmd === 'explain' ? ['web'] : []), ...input, '--burst-replicas', '0']);
      expect(r.status, cmd).toBe(2);
      expect(r.stderr.split('\n')[0], cmd).toBe('error: invalid argument "0" for "--burst-replicas" flag: expected a whole number ≥ 1');
    }
  });

  it('rejects an unknown -o value with a one-line error and exit status 2', () => {
    const r = node(RUN_JS, ['diff', '-f', join(ROOT, 'examples'), '-o', 'xml']);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: invalid argument "xml" for "-o, --output" flag: expected one of json, yaml, wide, name');
  });

  it("each command's help lists only the flags it accepts: every option shown parses", () => {
    const ex = join(ROOT, 'examples', 'drifted-replicaset.yaml');
    const help = node(RUN_JS, ['explain', '--help']).stdout;
    expect(help).toContain("    -o, --output='':\n        Output format (html: a rollout foreseen, on history's page). One of: json|yaml|html.");
    expect(help).toContain('-A, --all-namespaces=false:');
    expect(help).not.toMatch(/-l, --selector|wide|\|name/);
    // what the help offers, explain takes
    for (const o of ['json', 'yaml']) expect(node(RUN_JS, ['explain', 'shop-web', '-f', ex, '-o', o]).status, o).toBeLessThan(2);
    // html draws a rollout foreseen: deploy/NAME with a change (test/e2e/rollout-html.test.ts)
    const rest = join(ROOT, 'examples', 'deployment-at-rest.yaml');
    expect(node(RUN_JS, ['explain', 'deploy/web', '-n', 'storefront', '-f', rest, '--image', 'app=x:1', '-o', 'html']).status).toBe(0);
    expect(node(RUN_JS, ['explain', 'shop-web', '-f', ex, '-A']).status).toBeLessThan(2);
    // every command: the -o values its help lists are the ones it parses
    for (const [id, cmd] of Object.entries(manifest().commands)) {
      const out = cmd.flags.output;
      // record's -o takes json only, checked by its own parse (its refusal names --output-file)
      if (id === 'record') {
        expect(node(RUN_JS, [id, '--help']).stdout).toContain("    -o, --output='json':\n        Output format: json, JSON lines");
        continue;
      }
      if (out?.type !== 'option') continue;
      const text = node(RUN_JS, [id, '--help']).stdout;
      expect(text, id).toContain(`One of: ${(out.options ?? []).join('|')}.`);
      for (const bad of ['wide', 'name'].filter((f) => !out.options?.includes(f))) {
        expect(text, `${id} ${bad}`).not.toContain(bad === 'wide' ? '|wide' : '|name');
      }
    }
  });
});
