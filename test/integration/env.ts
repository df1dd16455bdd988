// Where the integration tests run: the embedded API server (default), or — with TEST_KUBECONFIG
// set — a real cluster, each test in a namespace of its own that is deleted afterwards. Tests that
// need the sandbox's audit log, fault injection or simulated kubelet skip on a real cluster.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach } from 'vitest';
import { parse } from 'yaml';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runForeground, type ForegroundOptions } from '../../src/services/run-foreground.js';

export const REAL = process.env.TEST_KUBECONFIG;

/**
 * Why a test that needs `features` of the sandbox (its audit log, fault injection, simulated
 * kubelet) is skipped: in real-cluster mode (TEST_KUBECONFIG) they are not there; null otherwise.
 * For itUnless and skipAllIf (test/skips.ts).
 */
export function sandboxOnlyReason(features: string): string | null {
  return REAL ? `real-cluster mode (TEST_KUBECONFIG): ${features} exist only on the sandbox` : null;
}

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

export interface TestEnv {
  real: boolean;
  kubeconfig: string;
  namespace: string;
  core: CoreV1Api;
  apps: AppsV1Api;
  /** The sandbox, when the tests run on it (audit log, faults, kubelet). */
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

export function exampleItems(name: string): any[] {
  return parse(readFileSync(join(EXAMPLES, `${name}.yaml`), 'utf8')).items;
}

let counter = 0;

const isCode = (e: unknown, code: number) => e instanceof ApiException && e.code === code;

/**
 * Makes pods creatable in `namespace`: the ServiceAccount admission plugin refuses a pod whose
 * service account (`default`) does not exist. kube-controller-manager's serviceaccount controller
 * creates it about 1 s after the namespace; a server without it (a bare kube-apiserver, or the
 * sandbox with controllers: false) never does, so after `waitMs` the test creates it itself
 * (AlreadyExists: the controller was there first).
 */
export async function ensureDefaultServiceAccount(core: CoreV1Api, namespace: string, waitMs = 3000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await core.readNamespacedServiceAccount({ name: 'default', namespace });
      return;
    } catch (e) {
      if (!isCode(e, 404)) throw e;
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'default' } } });
  } catch (e) {
    if (!isCode(e, 409)) throw e;
  }
}

/**
 * Creates the objects of a snapshot in a fresh namespace. On a real cluster the server chooses
 * uids, so owner references to the snapshot's controllers are rewritten by name, and controller
 * status is written through the status subresource; pod status is the real kubelet's.
 */
export async function testEnv(items: any[], opts: { nodes?: number } = {}): Promise<TestEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'rs-env-'));
  if (!REAL) {
    const namespaces = [...new Set(items.map((o) => o.metadata.namespace ?? 'default'))].map((n) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: n },
    }));
    const sandbox = await startSandbox({ seed: [...namespaces, ...items], gc: false, nodes: opts.nodes ?? 0 });
    const kubeconfig = join(dir, 'config');
    await sandbox.writeKubeconfig(kubeconfig);
    const kc = new KubeConfig();
    kc.loadFromString(sandbox.kubeconfig());
    const ns = items[0]?.metadata?.namespace ?? 'default';
    return {
      real: false,
      kubeconfig,
      namespace: ns,
      core: kc.makeApiClient(CoreV1Api),
      apps: kc.makeApiClient(AppsV1Api),
      sandbox,
      close: () => sandbox.close(),
    };
  }
  const kc = new KubeConfig();
  kc.loadFromFile(REAL);
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const namespace = `rs-test-${process.pid}-${Date.now().toString(36)}-${counter++}`;
  await core.createNamespace({ body: { metadata: { name: namespace, labels: { 'rs-reconcile/test': 'true' } } } });
  await ensureDefaultServiceAccount(core, namespace);
  // a kubeconfig whose context namespace is the test namespace
  const raw = parse(readFileSync(REAL, 'utf8'));
  const current = raw['current-context'];
  for (const c of raw.contexts ?? []) if (c.name === current) c.context.namespace = namespace;
  const kubeconfig = join(dir, 'config');
  writeFileSync(kubeconfig, JSON.stringify(raw));
  const uids = new Map<string, string>();
  const clean = (o: any) => {
    const { uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, deletionTimestamp: _d, deletionGracePeriodSeconds: _p, ...meta } = o.metadata;
    return { ...o, metadata: { ...meta, namespace }, status: undefined };
  };
  for (const o of items.filter((i) => i.kind === 'ReplicaSet' || i.kind === 'ReplicationController')) {
    const body = clean(o);
    delete body.metadata.ownerReferences; // a Deployment owner does not exist here
    const created: any =
      o.kind === 'ReplicaSet'
        ? await apps.createNamespacedReplicaSet({ namespace, body })
        : await core.createNamespacedReplicationController({ namespace, body });
    uids.set(`${o.kind}/${o.metadata.name}`, created.metadata.uid);
    if (o.status) {
      const status = { ...o.status, observedGeneration: created.metadata.generation };
      if (o.kind === 'ReplicaSet') await apps.replaceNamespacedReplicaSetStatus({ namespace, name: o.metadata.name, body: { ...created, status } });
      else await core.replaceNamespacedReplicationControllerStatus({ namespace, name: o.metadata.name, body: { ...created, status } });
    }
  }
  for (const o of items.filter((i) => i.kind === 'Pod' && !i.metadata.deletionTimestamp)) {
    const body = clean(o);
    body.spec = { ...o.spec };
    delete body.spec.nodeName; // the real scheduler places it
    body.metadata.ownerReferences = (o.metadata.ownerReferences ?? [])
      .map((r: any) => ({ ...r, uid: uids.get(`${r.kind}/${r.name}`) }))
      .filter((r: any) => r.uid !== undefined);
    await core.createNamespacedPod({ namespace, body });
  }
  return {
    real: true,
    kubeconfig,
    namespace,
    core,
    apps,
    sandbox: null,
    close: async () => {
      await core.deleteNamespace({ name: namespace }).catch(() => undefined);
    },
  };
}

/**
 * Options of the foreground controller (`run`) as the CLI builds them at its defaults (no leader
 * election, JSON logs, metrics on a free port), with the test's own changes on top.
 */
export function foregroundOptions(kubeconfig: string, extra: Partial<ForegroundOptions> = {}): ForegroundOptions {
  return {
    connection: { kubeconfig },
    allNamespaces: false,
    kinds: ['ReplicaSet', 'ReplicationController'],
    workers: 5,
    burstReplicas: 500,
    qps: 50,
    burst: 100,
    resyncMs: 0,
    leaderElect: false,
    leaseName: 'rs-reconcile',
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2000,
    identity: 'test',
    force: false,
    logFormat: 'json',
    verbosity: 0,
    metricsBindAddress: '0',
    untilSynced: false,
    timeoutMs: 20_000,
    ...extra,
  };
}

/** Polls `fn` until it gives a value (every `everyMs`), or throws after `ms`: a condition waited on, never a fixed sleep. */
export async function until<T>(what: string, fn: () => Promise<T | false | undefined | null>, ms = 60_000, everyMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** until, failing at once when one of `runs` has ended: no wait goes on for a controller that is gone. */
export function untilRunning<T>(
  runs: readonly StartedRun[],
  what: string,
  fn: () => Promise<T | false | undefined | null>,
  ms: number,
  everyMs = 100,
): Promise<T> {
  return until(
    what,
    async () => {
      const gone = runs.find((r) => r.ended);
      if (gone) throw new Error(`run ended (${JSON.stringify(gone.ended)}) while waiting for ${what}:\n${gone.logs.join('')}`);
      return fn();
    },
    ms,
    everyMs,
  );
}

/** A sandbox started for a test: its kubeconfig written to a fresh directory, clients and kubectl on it. */
export interface SandboxEnv {
  sandbox: Sandbox;
  dir: string;
  kubeconfig: string;
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  /** kubectl with this kubeconfig: its stdout. */
  kubectl(...args: string[]): Promise<string>;
}

/** `run` started in this process: its log lines as written, its stop, its exit code. */
export interface StartedRun {
  logs: string[];
  stop: AbortController;
  done: Promise<number>;
  /** Set once `run` has ended (its exit code, or what it threw): a wait need not go on for a run that is gone. */
  ended: { code?: number; error?: unknown } | null;
}

/** `run` with `opts` (foregroundOptions'), started in this process: its signal and log stream are the StartedRun's. */
export function startRun(opts: ForegroundOptions): StartedRun {
  const logs: string[] = [];
  const stop = new AbortController();
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const r: StartedRun = { logs, stop, done: runForeground({ ...opts, signal: stop.signal, stream }), ended: null };
  r.done.then(
    (code) => {
      r.ended = { code };
    },
    (error: unknown) => {
      r.ended = { error };
    },
  );
  return r;
}

const exec = promisify(execFile);

/**
 * The sandbox and the `run`s of the test that is running, in a test file (or describe) that calls
 * this once: after each test every run — and whatever else was started on a `stopper` — is stopped
 * and waited for (its promise settled, no sleep), then the sandbox closed. With `per: 'suite'` that
 * happens once, after the last test of the file (or describe), for tests that share one sandbox
 * started in a beforeAll. `close()` does the same in the middle of a test (a property test's rounds).
 */
export function sandboxTests(prefix: string, opts: { per?: 'test' | 'suite' } = {}) {
  let current: Sandbox | null = null;
  const started: { stop: AbortController; settled: () => Promise<unknown> }[] = [];
  const close = async () => {
    for (const r of started) r.stop.abort();
    await Promise.allSettled(started.splice(0).map(async (r) => r.settled()));
    await current?.close();
    current = null;
  };
  if (opts.per === 'suite') afterAll(close);
  else afterEach(close);
  return {
    /** The sandbox of the running test. */
    get sandbox(): Sandbox {
      if (!current) throw new Error('no sandbox started in this test');
      return current;
    },
    /** `opts` may be made from the test's directory (an audit log in it). */
    async start(opts: SandboxOptions | ((dir: string) => SandboxOptions) = {}): Promise<SandboxEnv> {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      const sandbox = await startSandbox(typeof opts === 'function' ? opts(dir) : opts);
      current = sandbox;
      const kubeconfig = join(dir, 'config');
      await sandbox.writeKubeconfig(kubeconfig);
      const kc = new KubeConfig();
      kc.loadFromString(sandbox.kubeconfig());
      const kubectl = async (...args: string[]) => (await exec('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000 })).stdout;
      return { sandbox, dir, kubeconfig, kc, core: kc.makeApiClient(CoreV1Api), apps: kc.makeApiClient(AppsV1Api), kubectl };
    },
    /** `run` with `opts` (foregroundOptions'), its signal and log stream this helper's. */
    run(opts: ForegroundOptions): StartedRun {
      const r = startRun(opts);
      started.push({ stop: r.stop, settled: () => r.done });
      return r;
    },
    /**
     * The signal of something else the test starts on the sandbox (a recording, a watch feed):
     * aborted and `settled()` awaited with the runs, before the sandbox closes.
     */
    stopper(settled: () => Promise<unknown>): AbortController {
      const stop = new AbortController();
      started.push({ stop, settled });
      return stop;
    },
    close,
  };
}
