// The shared flags parse to the option objects the services take (src/cli/flags.ts): each mapping
// written once. Parsed here with oclif's own parser and the very flag declarations the commands use.
import { Parser } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import {
  behaviourFlags,
  behaviourOptions,
  connectionFlags,
  modelFlags,
  modelOptions,
  oneTargetScopeFlags,
  scopeFlags,
  sourceOptions,
  stderrChalk,
  stdoutStyle,
  writerFlags,
  writerOptions,
} from '../../src/cli/flags.js';

async function parse<F extends Record<string, any>>(argv: string[], flags: F) {
  return (await Parser.parse(argv, { flags, strict: true })).flags as any;
}

describe('sourceOptions', () => {
  it("-f, -n, -A, -l, --max-input-size and the connection flags, under the services' names", async () => {
    const flags = await parse(
      [
        '-f',
        'a.yaml',
        '-f',
        'b.yaml',
        '-n',
        'shop',
        '-l',
        'app=web',
        '--max-input-size',
        '1Gi',
        '--context',
        'prod',
        '--as',
        'alice',
        '--as-group',
        'ops',
        '--as-group',
        'dev',
        '--request-timeout',
        '3s',
        '--kubeconfig',
        '/k',
        '--cluster',
        'c1',
        '--user',
        'u1',
      ],
      { ...scopeFlags, ...connectionFlags },
    );
    expect(sourceOptions(flags)).toEqual({
      filename: ['a.yaml', 'b.yaml'],
      namespace: 'shop',
      allNamespaces: false,
      selector: 'app=web',
      maxInputSize: '1Gi',
      connection: { kubeconfig: '/k', context: 'prod', cluster: 'c1', user: 'u1', as: 'alice', asGroups: ['ops', 'dev'], requestTimeout: '3s' },
    });
  });

  it('the defaults: every namespace only with -A, the default input limit, no selector where the command has none', async () => {
    const all = sourceOptions(await parse(['-A'], { ...scopeFlags, ...connectionFlags }));
    expect(all.allNamespaces).toBe(true);
    expect(all.namespace).toBeUndefined();
    expect(all.maxInputSize).toBe(scopeFlags['max-input-size'].default);
    // explain: NAME chooses, there is no -l
    const one = sourceOptions(await parse(['-n', 'shop'], { ...oneTargetScopeFlags, ...connectionFlags }));
    expect(one.selector).toBeUndefined();
    expect(one.namespace).toBe('shop');
  });
});

describe('modelOptions', () => {
  it('--now, --replicas, --kube-version, --feature-gates, --burst-replicas', async () => {
    const flags = await parse(
      ['--now', '2026-01-01T00:00:00Z', '--replicas', '3', '--kube-version', '1.30', '--feature-gates', 'PodDeletionCost=false', '--burst-replicas', '7'],
      modelFlags,
    );
    expect(modelOptions(flags)).toEqual({
      now: '2026-01-01T00:00:00Z',
      replicas: 3,
      kubeVersion: '1.30',
      featureGates: 'PodDeletionCost=false',
      burstReplicas: 7,
    });
  });

  it("unset: upstream's burst of 500, and no what-if (--replicas 0 is a what-if, not unset)", async () => {
    expect(modelOptions(await parse([], modelFlags))).toEqual({
      now: undefined,
      replicas: undefined,
      kubeVersion: undefined,
      featureGates: undefined,
      burstReplicas: 500,
    });
    expect(modelOptions(await parse(['--replicas', '0'], modelFlags)).replicas).toBe(0);
  });
});

describe('behaviourOptions', () => {
  it('--kube-version and --feature-gates alone (history, run, version take no what-if)', async () => {
    expect(behaviourOptions(await parse(['--kube-version', '1.29', '--feature-gates', 'LogarithmicScaleDown=false'], behaviourFlags))).toEqual({
      kubeVersion: '1.29',
      featureGates: 'LogarithmicScaleDown=false',
    });
    expect(behaviourOptions(await parse([], behaviourFlags))).toEqual({ kubeVersion: undefined, featureGates: undefined });
  });
});

describe('writerOptions', () => {
  it('--workers, --kube-api-qps, --kube-api-burst, defaults included', async () => {
    expect(writerOptions(await parse(['--workers', '2', '--kube-api-qps', '9'], writerFlags))).toEqual({ workers: 2, qps: 9, burst: 100 });
  });
});

describe('stdoutStyle', () => {
  const tty = { isTTY: true, columns: 132 };
  it('a terminal: colours (as TERM allows) and its width', () => {
    const s = stdoutStyle({}, tty, { TERM: 'xterm-256color' });
    expect(s.chalk.level).toBe(2);
    expect(s.width).toBe(132);
  });

  it('a pipe, NO_COLOR, or --output-file: no colour; no width unless a terminal is drawn on', () => {
    expect(stdoutStyle({}, { isTTY: false }, { TERM: 'xterm-256color' })).toMatchObject({ width: undefined });
    expect(stdoutStyle({}, { isTTY: false }, { TERM: 'xterm-256color' }).chalk.level).toBe(0);
    const noColor = stdoutStyle({}, tty, { TERM: 'xterm-256color', NO_COLOR: '1' });
    expect(noColor.chalk.level).toBe(0);
    expect(noColor.width).toBe(132);
    const file = stdoutStyle({ 'output-file': 'out.txt' }, tty, { TERM: 'xterm-256color' });
    expect(file.chalk.level).toBe(0);
    expect(file.width).toBeUndefined();
  });

  it('FORCE_COLOR colours a pipe', () => {
    expect(stdoutStyle({}, { isTTY: false }, { FORCE_COLOR: '1' }).chalk.level).toBe(1);
  });
});

describe('stderrChalk', () => {
  it("stderr's own colours: a terminal's, none on a pipe", () => {
    expect(stderrChalk({ isTTY: true }, { TERM: 'xterm' }).level).toBe(1);
    expect(stderrChalk({ isTTY: false }, { TERM: 'xterm' }).level).toBe(0);
  });
});
