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
import { Registry, withType } from './registry.js';
import { RESOURCES, type ResourceDef, resourceByName, resourceForKind } from './resources.js';
import { RestHandler } from './rest.js';
import { SandboxServer } from './server.js';
import { DEFAULT_SERVICE_ACCOUNT_DELAY_MS, seedDefaultServiceAccounts, serviceAccountAdmission, ServiceAccountController } from './serviceaccounts.js';
import { selfSignedCert } from './tls.js';
import { Store } from './store.js';
import { isObj } from '../core/guards.js';
import { clone, type Obj } from './util.js';
import { WatchHub } from './watch.js';

/** The User-Agent the seed's creates are logged with. */
export const SEED_USER_AGENT = 'rs-reconcile-sandbox-seed';

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

interface SandboxFaults {
  /** Adds a rule; returns its id. */
  set(rule: FaultRule): string;
  /** Removes one rule, or all. */
  clear(id?: string): void;
  /** Closes every open watch stream; returns how many were closed. */
  dropWatches(opts?: { abrupt?: boolean }): number;
  /** The next watch on this resource (plural name) is answered with 410 Expired. */
  forceGone(resource: string): void;
}

interface SandboxKubelet {
  /** Processes every scheduling/kubelet step that is due now. */
  tick(): void;
  /** Moves the kubelet clock forward by ms and processes what became due. */
  advance(ms: number): void;
  /** Restarts a container of a running pod (restartCount+1, Ready false until readyDelayMs). */
  restartContainer(namespace: string, name: string, container?: string): Obj;
}

interface SandboxServiceAccounts {
  /** Creates every `default` ServiceAccount that is due now. */
  tick(): void;
  /** Moves the serviceaccount controller's clock forward by ms and creates what became due. */
  advance(ms: number): void;
}

interface SandboxGarbageCollector {
  /** Processes now everything the collector has queued (it otherwise runs on its own, a moment after each change). */
  sync(): void;
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
  /** The garbage collector; absent with controllers: false or gc: false. */
  garbageCollector?: SandboxGarbageCollector;
  /** What became of the seed. */
  seed: SeedReport;
  close(): Promise<void>;
}

/** A seed object and the index of the seed item it came from (a List's items share their List's). */
interface SeedItem {
  object: Obj;
  from: number;
}

/** A seeded object that was not loaded, and why (the rest of the seed is). */
interface SeedSkip {
  /** The index in `seed` of the item it came from. */
  from: number;
  /** `Kind namespace/name` as far as the object says. */
  what: string;
  reason: string;
}

/** What became of the seed. */
interface SeedReport {
  /** The objects loaded, in the order they were. */
  loaded: number;
  skipped: SeedSkip[];
  /** Loaded objects with an ownerReference whose owner is not in the sandbox (the garbage collector keeps them). */
  withAbsentOwners: number;
}

const describeSeed = (o: unknown): string => {
  if (!isObj(o)) return `item of type ${Array.isArray(o) ? 'list' : typeof o}`;
  const m = isObj(o.metadata) ? o.metadata : {};
  const name = typeof m.name === 'string' && m.name !== '' ? m.name : '<no name>';
  return `${typeof o.kind === 'string' ? o.kind : '<no kind>'} ${typeof m.namespace === 'string' ? `${m.namespace}/` : ''}${name}`;
};

function flattenSeed(items: unknown[], skipped: SeedSkip[]): SeedItem[] {
  const out: SeedItem[] = [];
  const walk = (it: unknown, from: number) => {
    if (!isObj(it)) skipped.push({ from, what: describeSeed(it), reason: 'not an object' });
    else if (it.kind === 'List' || (typeof it.kind === 'string' && it.kind.endsWith('List') && Array.isArray(it.items))) {
      for (const x of Array.isArray(it.items) ? it.items : []) walk(x, from);
    } else out.push({ object: it, from });
  };
  for (const [i, it] of items.entries()) walk(it, i);
  // Namespaces and nodes first, so namespaced objects find theirs.
  const rank = (o: Obj) => (o.kind === 'Namespace' ? 0 : o.kind === 'Node' ? 1 : 2);
  return out.sort((a, b) => rank(a.object) - rank(b.object));
}

/**
 * The namespaces every cluster starts with, then the seed (a seeded namespace already there is
 * skipped, not replaced). An object the API server would not store is skipped and reported; the
 * loaded ones are returned for the audit log.
 */
function seedState(registry: Registry, store: Store, seed: unknown[]): { loaded: SeedLoaded[]; skipped: SeedSkip[] } {
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    registry.seed(resourceByName('namespaces')!, { metadata: { name } });
  }
  const skipped: SeedSkip[] = [];
  const loaded: SeedLoaded[] = [];
  for (const { object: o, from } of flattenSeed(seed, skipped)) {
    const res = resourceForKind(o.apiVersion, o.kind) ?? resourceForKind(undefined, o.kind);
    if (!res) {
      skipped.push({ from, what: describeSeed(o), reason: `the sandbox does not serve ${String(o.apiVersion)}/${String(o.kind)}` });
      continue;
    }
    if (res.namespaceLifecycle && store.get(res.name, undefined, o.metadata?.name)) continue;
    try {
      const object = registry.seed(res, o);
      // As a create sends it: no resourceVersion (a real server refuses one on create).
      const request = clone(o);
      if (isObj(request.metadata)) delete request.metadata.resourceVersion;
      loaded.push({ res, request, object });
    } catch (e) {
      skipped.push({ from, what: describeSeed(o), reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return { loaded, skipped };
}

interface SeedLoaded {
  res: ResourceDef;
  /** The object as the seed gave it. */
  request: Obj;
  /** The object as stored. */
  object: Obj;
}

/**
 * A seeded object enters the audit file as the create that would have made it (the seed's user,
 * the object as given and as stored), so `history` over the file knows the state every later
 * write starts from. Memory keeps only requests: tests and GET /sandbox/audit count those.
 */
function recordSeedCreate(audit: AuditLog, { res, request, object }: SeedLoaded): void {
  audit.recordInFile(
    {
      verb: 'create',
      resource: res.name,
      namespace: object.metadata.namespace,
      name: object.metadata.name,
      code: 201,
      dryRun: false,
      user: 'sandbox-admin',
      userAgent: SEED_USER_AGENT,
    },
    () => ({ request, response: withType(res, object) }),
  );
}

/** How many loaded objects name an owner (by uid) that is not in the store. */
function countAbsentOwners(store: Store, loaded: { object: Obj }[]): number {
  const uids = new Set<string>();
  for (const r of RESOURCES) for (const o of store.list(r.name)) uids.add(o.metadata.uid);
  return loaded.filter(({ object }) => ((object.metadata.ownerReferences ?? []) as Obj[]).some((r) => !uids.has(r.uid))).length;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const token = opts.token ?? randomBytes(24).toString('hex');
  const store = new Store(opts.watchHistory ?? 1000);
  const registry = new Registry(store);
  const faults = new Faults(opts.faultSeed ?? 1);
  const hub = new WatchHub(store, opts.bookmarkIntervalMs ?? 30_000);

  const seeded = seedState(registry, store, opts.seed ?? []);
  const seedReport: SeedReport = { loaded: seeded.loaded.length, skipped: seeded.skipped, withAbsentOwners: countAbsentOwners(store, seeded.loaded) };
  const controllers = opts.controllers !== false;
  const saDelay = opts.serviceAccountDelayMs ?? DEFAULT_SERVICE_ACCOUNT_DELAY_MS;
  if (!Number.isFinite(saDelay) || saDelay < 0) throw new Error('serviceAccountDelayMs must be a non-negative number');
  if (controllers) seedDefaultServiceAccounts(registry, store);

  // After the seed, so a bad seed leaves no audit file stream open.
  const audit = new AuditLog({ file: opts.auditLog, maxEntries: opts.auditMaxEntries });
  for (const l of seeded.loaded) recordSeedCreate(audit, l);
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
    garbageCollector: gc && { sync: () => gc.sync() },
    seed: seedReport,
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
