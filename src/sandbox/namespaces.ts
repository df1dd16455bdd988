// The namespace controller: a namespace being deleted has its content deleted, then its
// `kubernetes` finalizer removed (PUT …/finalize), after which it disappears.
import type { AuditLog } from './audit.js';
import { act, USERS } from './internal.js';
import type { Registry } from './registry.js';
import type { Store, StoreEvent } from './store.js';

export class NamespaceController {
  private readonly pending = new Set<string>();
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly audit: AuditLog,
  ) {}

  start(): void {
    this.unsubscribe = this.store.subscribe((ev) => this.observe(ev));
    for (const ns of this.store.list('namespaces')) if (ns.metadata.deletionTimestamp) this.pending.add(ns.metadata.name);
    this.timer = setInterval(() => this.sync(), 250);
    this.timer.unref();
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
  }

  private observe(ev: StoreEvent): void {
    if (ev.resource === 'namespaces') {
      if (ev.type !== 'DELETED' && ev.object.metadata.deletionTimestamp) {
        this.pending.add(ev.object.metadata.name);
        this.kick();
      }
      if (ev.type === 'DELETED') this.pending.delete(ev.object.metadata.name);
      return;
    }
    if (ev.type === 'DELETED' && this.pending.has(ev.object.metadata?.namespace)) this.kick();
  }

  private kicked = false;
  private kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    setTimeout(() => {
      this.kicked = false;
      if (!this.stopped) this.sync();
    }, 1).unref();
  }

  private sync(): void {
    for (const name of [...this.pending]) this.syncNamespace(name);
  }

  private syncNamespace(name: string): void {
    const ns = this.store.get('namespaces', undefined, name);
    if (!ns?.metadata.deletionTimestamp) {
      this.pending.delete(name);
      return;
    }
    let remaining = 0;
    for (const res of this.registry.namespacedResources()) {
      for (const o of this.store.list(res.name, name)) {
        remaining++;
        if (o.metadata.deletionTimestamp) continue;
        act(
          this.audit,
          USERS.namespaceController,
          {
            verb: 'delete',
            resource: res.name,
            namespace: name,
            name: o.metadata.name,
            request: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/__internal', propagationPolicy: 'Background' },
          },
          () => this.registry.delete(res, name, o.metadata.name, { propagationPolicy: 'Background' }, { dryRun: false, user: USERS.namespaceController }),
        );
      }
    }
    if (remaining > 0) {
      // Objects deleted at once are gone already; count again.
      remaining = this.registry.namespacedResources().reduce((n, r) => n + this.store.list(r.name, name).length, 0);
    }
    if (remaining > 0) return;
    if ((ns.spec?.finalizers ?? []).length === 0) return;
    act(this.audit, USERS.namespaceController, { verb: 'update', resource: 'namespaces', subresource: 'finalize', name }, () =>
      this.registry.finalizeNamespace(name, { spec: { finalizers: [] } }, { dryRun: false, user: USERS.namespaceController }),
    );
  }
}
