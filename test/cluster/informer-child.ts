// Run in a child process (bundled by informer-process.test.ts): an informer per resource against the
// cluster of the kubeconfig in argv[2], stopped by abort; the process must then exit by itself,
// and it reports what it still holds open (leftOpen) after the abort.
//   argv[3] = "synced": wait for the caches to sync and the watches to open, then abort, and
//             report the heap growth of holding the caches (needs --expose-gc); argv[4] is the
//             page size of the lists.
//   argv[3] = "early":  abort after argv[4] ms whatever the informers are doing (listing,
//             backing off, waiting for a watch answer).
import { connect } from '../../src/cluster/kubeconfig.js';
import { Informer, type InformerMetric } from '../../src/cluster/informer.js';
import { controllerUidIndexer, namespaceIndexer } from '../../src/cluster/cache.js';
import type { Pod } from '../../src/core/types.js';

const [, , kubeconfig, mode, param] = process.argv;
const gc = (globalThis as { gc?: () => void }).gc;

function heap(): number {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const conn = connect({ kubeconfig }, {});
  const base = heap();
  const started = Date.now();
  const ac = new AbortController();
  const metrics: InformerMetric[] = [];
  const errors: string[] = [];
  const common = {
    conn,
    namespace: null,
    backoff: { initialMs: 50, maxMs: 400 },
    resyncMs: 200,
    pageSize: mode === 'synced' ? Number(param) : 500,
    onMetric: (m: InformerMetric) => metrics.push(m),
    onError: (e: Error) => errors.push(e.message),
  };
  const pods = new Informer<Pod>({ ...common, resource: 'pods', indexers: { namespace: namespaceIndexer, controllerUid: controllerUidIndexer } });
  const others = [new Informer({ ...common, resource: 'replicasets' }), new Informer({ ...common, resource: 'replicationcontrollers' })];
  let adds = 0;
  pods.addHandlers({ add: () => adds++ });
  const runs = [pods, ...others].map((i) => i.run(ac.signal));

  const report: Record<string, unknown> = { mode };
  if (mode === 'synced') {
    await Promise.all([pods, ...others].map((i) => i.waitForSync()));
    report.syncMs = Date.now() - started;
    // Let the three watches open (one metric each) before stopping.
    while (metrics.filter((m) => m.event === 'watch').length < 3) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 300));
    report.heapGrowth = heap() - base;
    report.rss = process.memoryUsage().rss;
    report.cached = pods.cache.size();
    report.adds = adds;
    report.namespaces = pods.cache.indexValues('namespace').length;
    report.controllers = pods.cache.indexValues('controllerUid').length;
    report.sample = pods.cache.list()[0];
  } else {
    await new Promise((r) => setTimeout(r, Number(param)));
    report.synced = pods.hasSynced();
  }
  const waiting = pods.waitForSync().then(
    () => 'resolved',
    () => 'rejected',
  );
  ac.abort();
  await Promise.all(runs);
  report.waitForSyncAfterStop = await waiting;
  report.lists = metrics.filter((m) => m.event === 'list').length;
  report.watches = metrics.filter((m) => m.event === 'watch').length;
  report.errors = errors;
  // What is still open once the sockets the abort destroyed have finished closing (a few turns of
  // the event loop): anything left (a timer, a kept-alive socket, a watch) would keep the process alive.
  const open = () => process.getActiveResourcesInfo().filter((r) => r !== 'PipeWrap' && r !== 'TTYWrap');
  for (let turn = 0; turn < 100 && open().length > 0; turn++) await new Promise((r) => setImmediate(r));
  report.leftOpen = open();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
