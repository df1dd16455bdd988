// The serviceaccount controller (as kube-controller-manager's: `default` in every active
// namespace, re-created when deleted) and the ServiceAccount admission plugin of the API server
// (a pod's service account must exist in its namespace).
import type { AuditLog } from './audit.js';
import { forbidden } from './errors.js';
import { act, CONTROLLER_MANAGER } from './internal.js';
import type { Admission, Registry } from './registry.js';
import { resourceByName } from './resources.js';
import type { Store, StoreEvent } from './store.js';
import { isObj } from '../core/guards.js';
import type { Obj } from './util.js';

const DEFAULT_SERVICE_ACCOUNT = 'default';
const SERVICE_ACCOUNT_CONTROLLER_USER = 'system:serviceaccount:kube-system:service-account-controller';
/** How long after a namespace appears its `default` ServiceAccount does (observed: about 1 s). */
export const DEFAULT_SERVICE_ACCOUNT_DELAY_MS = 1000;
/**
 * Admission looks `default` up 10 times, one random 100–199 ms interval apart, before it refuses
 * the pod: 9 intervals, 150 ms on average.
 */
const ADMISSION_WAIT_MS = 9 * 150;
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

const SERVICE_ACCOUNTS = resourceByName('serviceaccounts')!;

function active(ns: Obj | undefined): boolean {
  return !!ns && !ns.metadata.deletionTimestamp && (ns.status?.phase ?? 'Active') === 'Active';
}

export class ServiceAccountController {
  /** namespace → when its `default` is due (on the controller's clock). */
  private readonly due = new Map<string, number>();
  private offset = 0;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly audit: AuditLog,
    private readonly delayMs: number = DEFAULT_SERVICE_ACCOUNT_DELAY_MS,
  ) {}

  private now(): number {
    return Date.now() + this.offset;
  }

  start(): void {
    this.unsubscribe = this.store.subscribe((ev) => this.observe(ev));
    for (const ns of this.store.list('namespaces')) this.consider(ns.metadata.name);
    this.timer = setInterval(() => this.tick(), 20);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    this.due.clear();
  }

  /** Moves the controller's clock forward and creates what became due. */
  advance(ms: number): void {
    this.offset += Math.max(0, ms);
    this.tick();
  }

  tick(): void {
    const now = this.now();
    for (const [ns, at] of [...this.due]) if (at <= now) this.sync(ns);
  }

  /**
   * ServiceAccount admission waits for `default` within its retry budget: what this controller
   * would create by then is created now, so the pod is admitted (without the wall-clock wait).
   */
  awaitDefault(namespace: string): void {
    const at = this.due.get(namespace);
    if (at !== undefined && at <= this.now() + ADMISSION_WAIT_MS) this.sync(namespace);
  }

  private observe(ev: StoreEvent): void {
    if (ev.resource === 'namespaces') {
      if (ev.type === 'DELETED') this.due.delete(ev.object.metadata.name);
      else this.consider(ev.object.metadata.name);
    } else if (ev.resource === 'serviceaccounts' && ev.type === 'DELETED' && ev.object.metadata.name === DEFAULT_SERVICE_ACCOUNT) {
      this.consider(ev.object.metadata.namespace);
    }
  }

  private consider(namespace: string): void {
    if (this.due.has(namespace)) return;
    if (!active(this.store.get('namespaces', undefined, namespace))) return;
    if (this.store.get('serviceaccounts', namespace, DEFAULT_SERVICE_ACCOUNT)) return;
    this.due.set(namespace, this.now() + this.delayMs);
  }

  private sync(namespace: string): void {
    this.due.delete(namespace);
    // Not in a namespace being deleted (the create would be refused anyway).
    if (!active(this.store.get('namespaces', undefined, namespace))) return;
    if (this.store.get('serviceaccounts', namespace, DEFAULT_SERVICE_ACCOUNT)) return;
    const user = SERVICE_ACCOUNT_CONTROLLER_USER;
    act(
      this.audit,
      user,
      { verb: 'create', resource: 'serviceaccounts', namespace, name: DEFAULT_SERVICE_ACCOUNT },
      () =>
        this.registry.create(
          SERVICE_ACCOUNTS,
          namespace,
          { metadata: { name: DEFAULT_SERVICE_ACCOUNT } },
          { dryRun: false, user, fieldManager: CONTROLLER_MANAGER },
        ),
      201,
    );
  }
}

/** What the controller would have made of seeded state: `default` in every active namespace (seeding is not a request). */
export function seedDefaultServiceAccounts(registry: Registry, store: Store): void {
  for (const ns of store.list('namespaces')) {
    const name = ns.metadata.name;
    if (active(ns) && !store.get('serviceaccounts', name, DEFAULT_SERVICE_ACCOUNT)) {
      registry.seed(SERVICE_ACCOUNTS, { metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: name } });
    }
  }
}

/**
 * The ServiceAccount admission plugin, for pod creates: the service account (serviceAccountName,
 * defaulted to `default`) must exist in the pod's namespace, else 403. Mirror pods may not name
 * one. `awaitDefault` stands for the plugin's retries while the controller creates `default`.
 */
export function serviceAccountAdmission(store: Store, awaitDefault?: (namespace: string) => void): Admission {
  return (res, o) => {
    // An admission plugin picks the resource it acts on, as upstream's serviceaccount.Admit does
    // (a.GetResource().GroupResource() != api.Resource("pods")): not a kind's own rule.
    if (res.name !== 'pods') return;
    const meta = o.metadata as Obj;
    // The name as admission sees it: generateName is not expanded yet.
    const name: string = meta.name || meta.generateName || 'Unknown';
    const gr = { group: '', resource: 'pods' };
    const spec: Obj = isObj(o.spec) ? o.spec : (o.spec = {});
    const namespace: string = meta.namespace;
    if (isObj(meta.annotations) && MIRROR_POD_ANNOTATION in meta.annotations) {
      if (spec.serviceAccountName || spec.serviceAccount) throw forbidden(gr, name, 'a mirror pod may not reference service accounts');
      return;
    }
    spec.serviceAccountName = spec.serviceAccountName || spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT;
    spec.serviceAccount = spec.serviceAccountName;
    const sa: string = spec.serviceAccountName;
    if (!store.get('serviceaccounts', namespace, sa) && sa === DEFAULT_SERVICE_ACCOUNT) awaitDefault?.(namespace);
    if (!store.get('serviceaccounts', namespace, sa)) {
      throw forbidden(gr, name, `error looking up service account ${namespace}/${sa}: serviceaccount "${sa}" not found`);
    }
  };
}
