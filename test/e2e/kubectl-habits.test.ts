// kubectl's habits, through the built CLI (issue 20, items 3 and 4): -h and `help`, cobra's
// unknown-command answer, --debug in help, one wording for file errors, empty input refused, and
// Ctrl-C exiting 130. Every way in: bin/run.js with the bundle and with the plain tsc output
// (RS_RECONCILE_NO_BUNDLE=1), as `rs-reconcile` and as `kubectl rs-reconcile`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cli, ensureBuilt, example, NOW, ROOT, RUN_JS } from './cli.js';
import { itUnless } from '../skips.js';

beforeAll(() => ensureBuilt(), 300_000);

const dir = mkdtempSync(join(tmpdir(), 'rs-habits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

const ENTRIES = [
  ['the bundle', {}],
  ['the plain build', { RS_RECONCILE_NO_BUNDLE: '1' }],
] as const;
const PLUGIN = { RS_RECONCILE_INVOKED_AS: 'kubectl-rs_reconcile' };

describe.each(ENTRIES)('help and unknown commands, through %s', (_label, entry) => {
  it('-h is --help, for the root and for every command; `help diff` is `diff --help`', () => {
    const root = cli(['--help'], { env: entry });
    expect(root.status).toBe(0);
    expect(root.stdout).toContain('Usage:\n  rs-reconcile [command] [flags]');
    for (const args of [['-h'], ['help']]) expect(cli(args, { env: entry })).toEqual(root);
    // -h is one setting for every command (package.json oclif.additionalHelpFlags): every command
    // through the bundle, two through the plain build, whose start is slower
    const commands =
      'RS_RECONCILE_NO_BUNDLE' in entry
        ? ['diff', 'record']
        : ['diff', 'explain', 'reconcile', 'run', 'watch', 'history', 'record', 'sandbox', 'completion', 'version'];
    for (const cmd of commands) {
      const help = cli([cmd, '--help'], { env: entry });
      expect(help.status, cmd).toBe(0);
      expect(help.stdout, cmd).toContain(`Usage:\n  rs-reconcile ${cmd}`);
      expect(cli([cmd, '-h'], { env: entry }), `${cmd} -h`).toEqual(help);
      expect(cli(['help', cmd], { env: entry }), `help ${cmd}`).toEqual(help);
    }
  }, 180_000);

  it("an unknown command gets cobra's error, its suggestion and the usage pointer, exit 1", () => {
    const r = cli(['explian', 'shop-web'], { env: { ...entry, ...PLUGIN } });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: unknown command "explian" for "kubectl rs-reconcile"\n\nDid you mean this?\n\texplain\n\nRun \'kubectl rs-reconcile --help\' for usage.\n',
    );
    const plain = cli(['frobnicate'], { env: entry });
    expect(plain.status).toBe(1);
    expect(plain.stderr).toBe('error: unknown command "frobnicate" for "rs-reconcile"\nRun \'rs-reconcile --help\' for usage.\n');
    // flags before the command: kubectl's unknown-flag line, and where the command goes
    const first = cli(['-n', 'shop', 'diff'], { env: entry });
    expect(first.status).toBe(1);
    expect(first.stderr).toBe(
      "error: unknown shorthand flag: 'n' in -n (the command goes first: rs-reconcile diff -n shop)\nRun 'rs-reconcile --help' for usage.\n",
    );
    // help about an unknown command is the same answer
    for (const args of [
      ['help', 'explian'],
      ['explian', '-h'],
      ['explian', '--help'],
    ]) {
      const h = cli(args, { env: entry });
      expect(h.status, args.join(' ')).toBe(1);
      expect(h.stderr, args.join(' ')).toBe(
        'error: unknown command "explian" for "rs-reconcile"\n\nDid you mean this?\n\texplain\n\nRun \'rs-reconcile --help\' for usage.\n',
      );
    }
  }, 60_000);
});

describe('flags and arguments as cobra parses them', () => {
  const SNAP = example('drifted-replicaset');
  const AUDIT = join(ROOT, 'test/history/fixtures/demo-audit.jsonl');
  const explainOf = (args: string[]) => cli(['explain', '--now', NOW, ...args]);

  it('a repeatable flag takes one value per occurrence: the NAME after -f is the argument, in any order', () => {
    const orders = [
      ['-f', SNAP, 'shop-web'],
      ['shop-web', '-f', SNAP],
      [`--filename=${SNAP}`, 'shop-web'],
      ['--filename', SNAP, 'rs/shop-web'],
      ['-n', 'shop', '-f', SNAP, 'shop-web'],
      ['-f', SNAP, 'shop-web', '-n', 'shop'],
      ['rs', 'shop-web', '-f', SNAP],
      ['-f', SNAP, 'rs.apps/shop-web'],
      ['-f', SNAP, 'replicasets.v1.apps/shop-web'],
      ['-f', SNAP, '--', 'shop-web'],
      ['-f', SNAP, '--as-group', 'g1', 'shop-web'],
      ['--as-group', 'g1', '--as-group', 'g2', 'shop-web', '-f', SNAP],
    ];
    const first = explainOf(orders[0]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^ReplicaSet shop\/shop-web/);
    for (const o of orders.slice(1)) expect(explainOf(o), o.join(' ')).toEqual(first);
  }, 120_000);

  it("-f a -f b and -f a,b (kubectl's StringSlice), a directory, and names after them", () => {
    const two = ['-f', SNAP, '-f', example('scale-down-ranking')];
    const byTwo = cli(['diff', ...two, '-A', '-o', 'name', '--now', NOW]);
    expect(byTwo.stdout).toBe('replicaset.apps/search-5f7c9\nreplicaset.apps/shop-web\n');
    expect(cli(['diff', '-f', `${SNAP},${example('scale-down-ranking')}`, '-A', '-o', 'name', '--now', NOW])).toEqual(byTwo);
    const named = cli(['diff', '-f', join(ROOT, 'examples'), 'rs/shop-web', '-o', 'name', '--now', NOW]);
    expect(named.stdout, named.stderr).toBe('replicaset.apps/shop-web\n');
    expect(cli(['diff', 'rs', 'shop-web', ...two, '-o', 'name', '--now', NOW]).stdout).toBe('replicaset.apps/shop-web\n');
  }, 120_000);

  it('history --audit-log=FILE rc/api and --audit-log FILE rc/api, and rc api', () => {
    const eq = cli(['history', `--audit-log=${AUDIT}`, 'rc/api', '--kube-version', '1.32']);
    expect(eq.status, eq.stderr).toBe(0);
    expect(eq.stdout).toContain('api');
    for (const args of [
      ['--audit-log', AUDIT, 'rc/api'],
      ['rc/api', '--audit-log', AUDIT],
      ['rc', 'api', '--audit-log', AUDIT],
      ['--audit-log', AUDIT, 'replicationcontrollers/api'],
    ])
      expect(cli(['history', ...args, '--kube-version', '1.32']), args.join(' ')).toEqual(eq);
  }, 120_000);

  it("a wrong type gets kubectl's one line, exit status 2", () => {
    for (const args of [['foo/x'], ['foo', 'x']]) {
      const r = explainOf([...args, '-f', SNAP]);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('error: the server doesn\'t have a resource type "foo"\n');
    }
  });

  it("--feature-gates as kube-controller-manager takes it: other controllers' gates noted, unknown ones refused in its words", () => {
    const diff = (gates: string, ...extra: string[]) =>
      cli(['diff', '-f', example('scale-down-ranking'), '--now', NOW, '-o', 'name', '--feature-gates', gates, ...extra]);
    const other = diff('JobPodReplacementPolicy=false');
    expect(other.status).toBe(1);
    expect(other.stderr).toBe(
      'Warning: feature gate JobPodReplacementPolicy changes nothing the ReplicaSet and ReplicationController controllers do: accepted, as kube-controller-manager accepts it\n',
    );
    const unknown = diff('Foo=true', '--kube-version', '1.36');
    expect([unknown.status, unknown.stderr]).toEqual([2, 'error: invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo\n']);
    // past the newest minor whose gates rs-reconcile lists, the refusal says so
    const newest = diff('Foo=true', '--kube-version', '1.37');
    expect(newest.status).toBe(2);
    expect(newest.stderr).toContain(
      "unrecognized feature gate: Foo (rs-reconcile knows kube-controller-manager's gates up to 1.36; a gate new in 1.37 is not in its list)",
    );
    const value = diff('PodDeletionCost=yes');
    expect(value.stderr).toBe(
      'error: invalid argument "PodDeletionCost=yes" for "--feature-gates" flag: invalid value of PodDeletionCost=yes, err: strconv.ParseBool: parsing "yes": invalid syntax\n',
    );
    // a gate 1.36 knows, refused by 1.32's kube-controller-manager, which did not have it
    const old = diff('StaleControllerConsistencyReplicaSet=true', '--kube-version', '1.32');
    expect(old.stderr).toMatch(
      /unrecognized feature gate: StaleControllerConsistencyReplicaSet \(kube-controller-manager 1\.32 does not know it: 1\.36 and later do\)\n$/,
    );
    expect(diff('AllBeta=false').status).toBe(1);
    // history applies each writer's rules (here 1.32's, after the newest): the note is said once
    const history = cli(['history', '--audit-log', join(ROOT, 'test/history/fixtures/demo-audit.jsonl'), '--feature-gates', 'JobPodReplacementPolicy=false']);
    expect(history.stderr.match(/JobPodReplacementPolicy/g)).toHaveLength(1);
  }, 60_000);

  it('reconcile -f takes --now, as every command reading a snapshot; without -f it is refused', () => {
    const at = (now: string) => cli(['reconcile', '-f', SNAP, '--dry-run=client', '--yes', '-o', 'json', '--now', now]);
    const r = at(NOW);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).now).toBe(NOW);
    expect(JSON.parse(at('2026-02-01T00:00:00Z').stdout).now).toBe('2026-02-01T00:00:00Z');
    const live = cli(['reconcile', '--now', NOW, '--yes']);
    expect(live.status).toBe(2);
    expect(live.stderr).toBe('error: --now is only allowed with -f (a snapshot): a live cluster is planned at the time it is read\n');
  }, 60_000);
});

describe('--debug', () => {
  it('is in the help, as a global option, of the root and of every command', () => {
    const global = 'Global options:\n    --debug=false:\n        Print the stack trace and details of an error.';
    expect(cli(['--help']).stdout).toContain(global);
    for (const cmd of ['diff', 'reconcile', 'record']) expect(cli([cmd, '--help']).stdout, cmd).toContain(global);
  });

  it('works: the one-line error, then its stack trace', () => {
    const plain = cli(['diff', '-f', 'nope.yaml']);
    expect(plain.stderr).toBe('error: the path "nope.yaml" does not exist\n');
    const debug = cli(['diff', '-f', 'nope.yaml', '--debug']);
    expect(debug.status).toBe(2);
    const lines = debug.stderr.trim().split('\n');
    expect(lines[0]).toBe('error: the path "nope.yaml" does not exist');
    expect(lines.slice(1).some((l) => /^\s+at /.test(l))).toBe(true);
  });
});

describe('file errors read one way on every input path', () => {
  const bad = join(dir, 'bad.yaml');
  beforeAll(() => writeFileSync(bad, 'a: [\n b: c\n'));

  it('a missing path: kubectl\'s "the path … does not exist", for -f, --plan, --audit-log, --events-file and --recording', () => {
    const missing = join(dir, 'missing.yaml');
    for (const args of [
      ['diff', '-f', missing],
      ['explain', 'rs/web', '-f', missing],
      ['watch', '-f', missing],
      ['reconcile', '--plan', missing, '--yes'],
      ['history', 'rs/web', '--audit-log', missing],
      ['history', 'rs/web', '--events-file', missing],
      ['history', 'rs/web', '--recording', missing],
    ]) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(`error: the path "${missing}" does not exist\n`);
    }
  }, 90_000);

  it('bad YAML: one line, "error parsing FILE: reason (line N, column C)", no caret excerpt', () => {
    const want = `error: error parsing ${bad}: invalid YAML: unexpected end of the stream within a flow collection (line 3, column 1)\n`;
    for (const args of [
      ['diff', '-f', bad],
      ['reconcile', '--plan', bad, '--yes'],
      ['history', 'rs/web', '--events-file', bad],
    ]) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(want);
    }
  }, 60_000);
});

describe('empty input fails the gate', () => {
  const empty = join(dir, 'empty.yaml');
  const emptyDir = join(dir, 'emptydir');
  beforeAll(() => {
    writeFileSync(empty, '');
    mkdirSync(emptyDir, { recursive: true });
  });

  it.each(ENTRIES)(
    'diff -f of an empty file, an empty directory or empty stdin: exit 2, one line, as kubectl apply (%s)',
    (_label, entry) => {
      for (const [args, input] of [
        [['diff', '-f', empty], ''],
        [['diff', '-f', emptyDir], ''],
        [['diff', '-f', '-'], ''],
        [['diff', '-f', '-'], '# a failed kubectl get > snap.yaml leaves nothing, or this\n'],
      ] as const) {
        const r = cli([...args], { input, env: entry });
        expect(r.status, args.join(' ')).toBe(2);
        expect(r.stdout, args.join(' ')).toBe('');
        expect(r.stderr, args.join(' ')).toBe('error: no objects passed to diff\n');
      }
    },
    60_000,
  );

  it('every command that reads -f names itself', () => {
    for (const [cmd, ...rest] of [['explain', 'rs/web'], ['explain', 'pod/web-1'], ['watch'], ['reconcile', '--dry-run=client']]) {
      const r = cli([cmd, ...rest, '-f', empty]);
      expect(r.status, cmd).toBe(2);
      expect(r.stderr, `${cmd} ${rest.join(' ')}`).toBe(`error: no objects passed to ${cmd}\n`);
    }
  }, 60_000);

  it('objects of other kinds are input: no controller found, in sync, exit 0 (as before)', () => {
    const service = join(dir, 'service.yaml');
    writeFileSync(service, 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n');
    const r = cli(['diff', '-f', service]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('Warning: skipped 1 object of other kinds (Service: 1)');
    expect(r.stderr).toContain('No resources found in the snapshot.');
    // and a snapshot with controllers still plans as before
    expect(cli(['diff', '-f', example('drifted-replicaset'), '--now', NOW]).status).toBe(1);
  });
});

describe('Ctrl-C exits 130, as a shell expects', () => {
  let sb: Sandbox | null = null;
  const kubeconfig = join(dir, 'sandbox.kubeconfig');
  beforeAll(async () => {
    const labels = { app: 'web' };
    sb = await startSandbox({
      seed: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'web', namespace: 'shop', uid: 'rs-1' },
          spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
        },
      ],
    });
    await sb.writeKubeconfig(kubeconfig);
  }, 60_000);
  afterAll(async () => {
    await sb?.close();
  });

  /** A namespace of its own (with its default ServiceAccount, which pods need) and one ReplicaSet NAME with no pod. */
  async function namespaceWithReplicaSet(name: string, replicas: number): Promise<void> {
    const { CoreV1Api, AppsV1Api, KubeConfig } = await import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name } } });
    for (const deadline = Date.now() + 30_000; ; ) {
      if (
        await core.readNamespacedServiceAccount({ namespace: name, name: 'default' }).then(
          () => true,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error('no default ServiceAccount in time');
      await new Promise((r) => setTimeout(r, 50));
    }
    const labels = { app: name };
    await kc.makeApiClient(AppsV1Api).createNamespacedReplicaSet({
      namespace: name,
      body: {
        metadata: { name },
        spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      },
    });
  }

  it('run: after the caches synced, SIGINT stops it gracefully with exit 130', async () => {
    const child = spawn(process.execPath, [RUN_JS, 'run', '-n', 'shop', '--force', '--kubeconfig', kubeconfig], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent-home' },
    });
    let stderr = '';
    const synced = new Promise<void>((resolve) =>
      child.stderr.on('data', (b) => {
        stderr += b;
        if (stderr.includes('Caches are synced')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await Promise.race([synced, exited]);
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('Shutting down');
  }, 60_000);

  it('reconcile: SIGINT mid-apply stops the writes and exits 130', async () => {
    // many pods, written at the default 50 writes a second: the apply takes seconds
    await namespaceWithReplicaSet('bulk', 1000);
    const audit = () => sb!.audit().filter((e) => e.verb === 'create' && e.resource === 'pods' && e.namespace === 'bulk').length;
    const child = spawn(process.execPath, [RUN_JS, 'reconcile', '-n', 'bulk', '--yes', '--kubeconfig', kubeconfig], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent-home' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (const deadline = Date.now() + 30_000; audit() === 0; ) {
      if (Date.now() > deadline) throw new Error('no pod created in time');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(audit()).toBeLessThan(1000);
  }, 90_000);

  const tmux = (() => {
    try {
      execFileSync('tmux', ['-V']);
      return true;
    } catch {
      return false;
    }
  })();

  itUnless(tmux ? null : 'tmux is missing (apt-get install -y tmux): the terminal prompt is not tried')(
    'reconcile: Ctrl-C at the confirmation prompt (a key on a terminal) exits 130 and writes nothing',
    async () => {
      const socket = `rs-habits-${process.pid}`;
      const t = (...args: string[]) =>
        execFileSync('tmux', ['-L', socket, ...args], {
          encoding: 'utf8',
          timeout: 10_000,
          env: { PATH: process.env.PATH, HOME: dir, HISTFILE: '/dev/null', TERM: 'xterm-256color', LANG: 'C.UTF-8' },
        });
      const screen = () => t('capture-pane', '-p', '-t', 'w');
      const waitFor = async (re: RegExp, what: string) => {
        for (const deadline = Date.now() + 30_000; ; ) {
          const s = screen();
          if (re.test(s)) return s;
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${s}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      t('-f', '/dev/null', 'new-session', '-d', '-s', 'w', '-x', '120', '-y', '40', 'bash --norc --noprofile');
      try {
        await namespaceWithReplicaSet('prompt', 2);
        const before = sb!.audit().length;
        t('send-keys', '-t', 'w', '-l', `cd ${ROOT} && NO_COLOR=1 node bin/run.js reconcile -n prompt --kubeconfig ${kubeconfig}; echo EXIT=$?`);
        t('send-keys', '-t', 'w', 'Enter');
        await waitFor(/\[y\/N\] *$/m, 'the confirmation prompt');
        t('send-keys', '-t', 'w', 'C-c');
        await waitFor(/EXIT=130/, 'the exit');
        const writes = sb!
          .audit()
          .slice(before)
          .filter((e) => !['get', 'list', 'watch'].includes(e.verb) && !e.user?.startsWith('system:'));
        expect(writes).toEqual([]);
      } finally {
        t('kill-server');
      }
    },
    60_000,
  );
});
