// The embedded Kubernetes API server: a faithful in-memory subset of kube-apiserver v1.32 on
// 127.0.0.1, with a simulated scheduler/kubelet, garbage collection, fault injection and an audit log.
import { randomBytes } from 'node:crypto';
import { AuditLog, type AuditEntry } from './audit.js';
import { Faults, type FaultRule } from './faults.js';
import { GarbageCollector } from './gc.js';
import { Kubelet, type KubeletOptions } from './kubelet.js';
import { kubeconfigText, writeKubeconfigFile } from './kubeconfig.js';
import { NamespaceController } from './namespaces.js';
import { noControllerAdmission } from './no-controller.js';
import { Registry } from './registry.js';
import { resourceByName, resourceForKind } from './resources.js';
import { RestHandler } from './rest.js';
import { SandboxServer } from './server.js';
import { DEFAULT_SERVICE_ACCOUNT_DELAY_MS, seedDefaultServiceAccounts, serviceAccountAdmission, ServiceAccountController } from './serviceaccounts.js';
import { selfSignedCert } from './tls.js';
import { Store } from './store.js';
import { isPlainObject, type Obj } from './util.js';
import { WatchHub } from './watch.js';

export type { AuditEntry, AuditVerb } from './audit.js';
export type { FaultRule } from './faults.js';
export type { KubeletOptions } from './kubelet.js';

export interface SandboxOptions {
  /** 0 = a free port (default). */
  port?: number;
  /** Bearer token; random by default. Requests without it get 401. */
  token?: string;
  /** Fake nodes node-1… (plus the nodes seeded pods sit on) for the simulated scheduler/kubelet; 0 = no kubelet (default). */
  nodes?: number;
  kubelet?: KubeletOptions;
  /**
   * Objects to preload (Namespaces, Nodes, Pods, ReplicaSets, RCs, Deployments, ConfigMaps, Secrets,
   * ServiceAccounts, Events, Leases, or a v1 List). Status is kept as given. Seeding bypasses
   * admission (as state restored from etcd): a seeded pod whose service account is missing is
   * loaded all the same. With the controllers, every seeded namespace has its `default`
   * ServiceAccount from the start.
   */
  seed?: unknown[];
  /**
   * kube-controller-manager's simulated controllers: serviceaccount, namespace and garbage
   * collector (default true). false = a bare API server: no `default` ServiceAccounts (pod creates
   * are refused until one is made), namespaces stay Terminating, no garbage collection.
   */
  controllers?: boolean;
  /** How long after a namespace appears the serviceaccount controller creates its `default` (default 1000 ms). */
  serviceAccountDelayMs?: number;
  /** Events kept per resource for watch resume and consistent pagination before 410 Gone (default 1000). */
  watchHistory?: number;
  /** JSON-lines audit file; it gets every entry. */
  auditLog?: string;
  /** Newest audit entries kept in memory for audit() and GET /sandbox/audit (default 100000); older ones are dropped and counted. */
  auditMaxEntries?: number;
  /** Background garbage collection by ownerReferences (default true). */
  gc?: boolean;
  /** Interval of BOOKMARK events on watches that allow them (default 30000 ms). */
  bookmarkIntervalMs?: number;
  /** Seed of the fault-injection random generator (default 1). */
  faultSeed?: number;
}

export interface SandboxFaults {
  /** Adds a rule; returns its id. */
  set(rule: FaultRule): string;
  /** Removes one rule, or all. */
  clear(id?: string): void;
  /** Closes every open watch stream; returns how many were closed. */
  dropWatches(opts?: { abrupt?: boolean }): number;
  /** The next watch on this resource (plural name) is answered with 410 Expired. */
  forceGone(resource: string): void;
}

export interface SandboxKubelet {
  /** Processes every scheduling/kubelet step that is due now. */
  tick(): void;
  /** Moves the kubelet clock forward by ms and processes what became due. */
  advance(ms: number): void;
  /** Restarts a container of a running pod (restartCount+1, Ready false until readyDelayMs). */
  restartContainer(namespace: string, name: string, container?: string): Obj;
}

export interface SandboxServiceAccounts {
  /** Creates every `default` ServiceAccount that is due now. */
  tick(): void;
  /** Moves the serviceaccount controller's clock forward by ms and creates what became due. */
  advance(ms: number): void;
}

export interface Sandbox {
  /** https://127.0.0.1:PORT (kubectl only sends bearer tokens over TLS). */
  url: string;
  port: number;
  token: string;
  /** PEM of the self-signed serving certificate: the CA to trust (it is in the kubeconfig too). */
  ca: string;
  kubeconfig(contextName?: string, namespace?: string): string;
  writeKubeconfig(path: string, namespace?: string): Promise<void>;
  /** The audit entries in memory (the newest auditMaxEntries), oldest first. */
  audit(): AuditEntry[];
  /** Entries recorded since the last clearAudit() that memory no longer holds (the audit file has them). */
  auditDropped(): number;
  clearAudit(): void;
  faults: SandboxFaults;
  /** Present when nodes > 0. */
  kubelet?: SandboxKubelet;
  /** The serviceaccount controller; absent with controllers: false. */
  serviceAccounts?: SandboxServiceAccounts;
  close(): Promise<void>;
}

function flattenSeed(items: unknown[]): Obj[] {
  const out: Obj[] = [];
  for (const it of items) {
    if (!isPlainObject(it)) throw new Error('seed: every item must be an object');
    if (it.kind === 'List' || (typeof it.kind === 'string' && it.kind.endsWith('List') && Array.isArray(it.items))) {
      out.push(...flattenSeed(it.items as unknown[]));
    } else out.push(it);
  }
  // Namespaces and nodes first, so namespaced objects find theirs.
  const rank = (o: Obj) => (o.kind === 'Namespace' ? 0 : o.kind === 'Node' ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b));
}

/** The namespaces every cluster starts with, then the seed (a seeded namespace already there is skipped, not replaced). */
function seedState(registry: Registry, store: Store, seed: unknown[]): void {
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    registry.seed(resourceByName('namespaces')!, { metadata: { name } });
  }
  for (const o of flattenSeed(seed)) {
    const res = resourceForKind(o.apiVersion, o.kind) ?? resourceForKind(undefined, o.kind);
    if (!res) throw new Error(`seed: unsupported object ${String(o.apiVersion)}/${String(o.kind)}`);
    if (res.namespaceLifecycle && store.get(res.name, undefined, o.metadata?.name)) continue;
    registry.seed(res, o);
  }
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const token = opts.token ?? randomBytes(24).toString('hex');
  const store = new Store(opts.watchHistory ?? 1000);
  const registry = new Registry(store);
  const faults = new Faults(opts.faultSeed ?? 1);
  const hub = new WatchHub(store, opts.bookmarkIntervalMs ?? 30_000);

  seedState(registry, store, opts.seed ?? []);
  const controllers = opts.controllers !== false;
  const saDelay = opts.serviceAccountDelayMs ?? DEFAULT_SERVICE_ACCOUNT_DELAY_MS;
  if (!Number.isFinite(saDelay) || saDelay < 0) throw new Error('serviceAccountDelayMs must be a non-negative number');
  if (controllers) seedDefaultServiceAccounts(registry, store);

  // After the seed, so a bad seed leaves no audit file stream open.
  const audit = new AuditLog({ file: opts.auditLog, maxEntries: opts.auditMaxEntries });
  const nodes = opts.nodes ?? 0;
  const kubelet = nodes > 0 ? new Kubelet(registry, store, audit, nodes, opts.kubelet) : undefined;
  const gc = opts.gc === false || !controllers ? undefined : new GarbageCollector(registry, store, audit);
  const nsController = controllers ? new NamespaceController(registry, store, audit) : undefined;
  const saController = controllers ? new ServiceAccountController(registry, store, audit, saDelay) : undefined;
  registry.admission.push(serviceAccountAdmission(store, saController && ((ns) => saController.awaitDefault(ns))));
  registry.admission.push(noControllerAdmission);
  const rest = new RestHandler(registry, hub, audit, faults);
  const tls = selfSignedCert();
  const server = new SandboxServer({ token, cert: tls.cert, key: tls.key, rest, hub, audit, faults, kubelet });
  let port: number;
  try {
    port = await server.listen(opts.port ?? 0);
  } catch (e) {
    await audit.close().catch(() => undefined);
    throw e;
  }
  const url = `https://127.0.0.1:${port}`;
  const ca = tls.cert;
  kubelet?.start();
  gc?.start();
  nsController?.start();
  saController?.start();

  let closed = false;
  return {
    url,
    port,
    token,
    ca,
    kubeconfig: (contextName, namespace) => kubeconfigText({ url, token, ca, contextName, namespace }),
    writeKubeconfig: (path, namespace) => writeKubeconfigFile(path, kubeconfigText({ url, token, ca, namespace })),
    audit: () => audit.all(),
    auditDropped: () => audit.dropped(),
    clearAudit: () => audit.clear(),
    faults: {
      set: (rule) => faults.set(rule),
      clear: (id) => faults.clear(id),
      dropWatches: (o) => hub.dropAll(o?.abrupt ?? false),
      forceGone: (resource) => hub.forceGone(resource),
    },
    kubelet: kubelet && {
      tick: () => kubelet.tick(),
      advance: (ms) => kubelet.advance(ms),
      restartContainer: (ns, name, container) => kubelet.restartContainer(ns, name, container),
    },
    serviceAccounts: saController && { tick: () => saController.tick(), advance: (ms) => saController.advance(ms) },
    close: async () => {
      if (closed) return;
      closed = true;
      kubelet?.stop();
      gc?.stop();
      nsController?.stop();
      saController?.stop();
      await server.close();
      await audit.close();
    },
  };
}
