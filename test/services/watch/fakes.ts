// The watch tests' fakes: in-memory informers with the API the dashboard uses, and news worded
// as the log pane words them.
import type { Pod, ReplicaSet, ReplicationController, Snapshot } from '../../../src/core/types.js';
import type { InformerLike, TombstoneLike, LogEntry, WatchNews } from '../../../src/services/watch/contract.js';
import { newsEntry } from '../../../src/ui/news.js';

/** News as the log pane words it (src/ui/news.ts): level and text, nothing for noise. */
export const worded = (push: (level: string, text: string) => void) => (news: WatchNews) => {
  const e = newsEntry(0, news);
  if (e) push(e.level, e.text);
};
/** A session's news into the same list as its log lines, as the dashboard keeps them. */
export const intoLog = (logs: LogEntry[]) => (at: number, news: WatchNews) => {
  const e = newsEntry(at, news);
  if (e) logs.push(e);
};

/** An in-memory informer with the Informer API the dashboard uses. */
export class FakeInformer<T extends { metadata: { name: string; namespace?: string; resourceVersion?: string } }> implements InformerLike<T> {
  items = new Map<string, T>();
  handlers: { add?(o: T): void; update?(a: T, b: T): void; delete?(o: T | TombstoneLike<T>): void }[] = [];
  synced = false;
  private waiters: (() => void)[] = [];
  cache = { list: () => [...this.items.values()] };
  addHandlers(h: FakeInformer<T>['handlers'][number]) {
    this.handlers.push(h);
    for (const o of this.items.values()) h.add?.(o);
  }
  async run() {}
  waitForSync() {
    return this.synced ? Promise.resolve() : new Promise<void>((r) => this.waiters.push(r));
  }
  hasSynced() {
    return this.synced;
  }
  sync() {
    this.synced = true;
    for (const w of this.waiters.splice(0)) w();
  }
  key(o: T) {
    return `${o.metadata.namespace}/${o.metadata.name}`;
  }
  add(o: T) {
    this.items.set(this.key(o), o);
    for (const h of this.handlers) h.add?.(o);
  }
  update(o: T) {
    const old = this.items.get(this.key(o))!;
    this.items.set(this.key(o), o);
    for (const h of this.handlers) h.update?.(old, o);
  }
  remove(o: T, tombstone = false) {
    this.items.delete(this.key(o));
    for (const h of this.handlers) h.delete?.(tombstone ? { tombstone: true, key: this.key(o), obj: o } : o);
  }
}

export function fakeCluster(snap: Snapshot) {
  const pods = new FakeInformer<Pod>();
  const replicasets = new FakeInformer<ReplicaSet>();
  const replicationcontrollers = new FakeInformer<ReplicationController>();
  for (const p of snap.pods) pods.items.set(pods.key(p), p);
  for (const r of snap.controllers.ReplicaSet as ReplicaSet[]) replicasets.items.set(replicasets.key(r), r);
  for (const r of snap.controllers.ReplicationController as ReplicationController[]) replicationcontrollers.items.set(replicationcontrollers.key(r), r);
  const syncAll = () => {
    for (const i of [pods, replicasets, replicationcontrollers]) i.sync();
  };
  return { pods, replicasets, replicationcontrollers, syncAll };
}

export const flush = () => new Promise((r) => setTimeout(r, 0));
