// The public demo log as managed clusters export it (../shared/history/demo/cloud/: GKE, EKS, AKS,
// OpenShift) gives, with no flag, the same history as the plain kube-apiserver log: the same events
// in the same order with the same verdicts, except where a shape cannot carry something, and then it
// says so and answers predicted: null, never false. The vendored fixtures (test/input/fixtures/audit,
// every format of the same events) run without ../shared.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/history/types.js';
import { buildHistory, type HistoryOptions } from '../../src/services/history-service.js';
import { skipAllIf, withoutShared } from '../skips.js';

const SHARED = join(import.meta.dirname, '../../../shared/history/demo');
const CLOUD = join(SHARED, 'cloud');
const FIXTURES = join(import.meta.dirname, '../input/fixtures/audit');

async function collect(opts: HistoryOptions) {
  const r = await buildHistory(opts);
  try {
    return { ...r, events: [...r.history.events] };
  } finally {
    r.close();
  }
}

const row = (e: HistoryEvent) => `${e.actor.user} ${e.verb} ${e.controller?.name ?? '-'} ${e.pod ?? '-'}`;

/**
 * An event without its times: GKE logs one timestamp an entry (when it completed), where
 * kube-apiserver logs when the request was received too, which the history lists by. The times
 * are compared apart, to within a second.
 */
const untimed = (e: HistoryEvent) => ({ ...e, time: undefined, cause: e.cause?.map((c) => ({ ...c, time: undefined })) ?? null });

function sameTimes(got: HistoryEvent[], want: HistoryEvent[]) {
  expect(got.length).toBe(want.length);
  got.forEach((e, i) => {
    expect(Math.abs(Date.parse(e.time) - Date.parse(want[i].time)), row(e)).toBeLessThan(1000);
  });
}

/** Writes a few ms apart may be listed in another order by a shape that logs only completion times. */
const byWrite = (es: HistoryEvent[]) => [...es].sort((a, b) => (`${row(a)} ${a.time}` < `${row(b)} ${b.time}` ? -1 : 1));

function sameEvents(got: HistoryEvent[], want: HistoryEvent[]) {
  expect(byWrite(got).map(untimed)).toEqual(byWrite(want).map(untimed));
  sameTimes(byWrite(got), byWrite(want));
}

/** `got` tells the same as `plain`: the same writes, each verdict the same or unknown (with why), none false. */
function sameStory(got: HistoryEvent[], plain: HistoryEvent[], lacking: (e: HistoryEvent) => boolean = () => false) {
  const want = byWrite(plain.filter((e) => !lacking(e)));
  got = byWrite(got);
  expect(got.map(row)).toEqual(want.map(row));
  sameTimes(got, want);
  for (const [i, e] of got.entries()) {
    const p = want[i];
    expect(e.predicted === false).toBe(false);
    if (e.predicted === p.predicted) {
      expect(e.reason).toBe(p.reason);
      expect(untimed(e).cause).toEqual(untimed(p).cause);
    } else {
      expect(e.predicted, row(e)).toBeNull();
      expect(e.message).toMatch(/unknown|truncated/);
    }
  }
}

describe('the demo in every shape of ../shared/history/demo/cloud', () => {
  // without ../shared every test is skipped saying so, and nothing is read
  const why = withoutShared(CLOUD);
  skipAllIf(why);
  let plain: Awaited<ReturnType<typeof collect>>;
  beforeAll(async () => {
    if (why !== null) return;
    plain = await collect({ auditLogs: [join(SHARED, 'audit.jsonl')], namespace: 'demo' });
  });
  const shapes: Record<string, string> = {
    'gke-gcloud.json': 'gke-cloud-logging',
    'gke-gcs.json': 'gke-cloud-logging',
    'gke-bigquery.json': 'gke-bigquery',
    'eks-filter.json': 'eks-cloudwatch',
    'eks-s3.gz': 'eks-s3-export',
    'aks-storage.json': 'aks-storage',
    'aks-eventhub.json': 'aks-event-hub',
    'aks-la.json': 'aks-log-analytics',
    'ocp-node-logs.txt': 'openshift-node-logs',
    'ocp-must-gather': 'openshift-must-gather',
  };

  it('names every shape it holds', () => {
    const files = readdirSync(CLOUD).filter((f) => f !== 'README.md');
    expect(files.sort()).toEqual([...Object.keys(shapes), 'gke-gcloud-default.json', 'eks-truncated.json'].sort());
  });

  for (const [file, format] of Object.entries(shapes)) {
    it(`${file}: the same events and verdicts as the plain log, read as ${format} with no flag`, async () => {
      const got = await collect({ auditLogs: [join(CLOUD, file)], namespace: 'demo' });
      expect(got.coverage.format).toBe(format);
      sameEvents(got.events, plain.events);
      expect(got.counts).toEqual(plain.counts);
    });
  }

  it('gke-gcloud-default.json (Data Access off): no status writes; the verdicts resting on pod status are unknown, none false', async () => {
    const got = await collect({ auditLogs: [join(CLOUD, 'gke-gcloud-default.json')], namespace: 'demo' });
    sameStory(got.events, plain.events, (e) => e.verb === 'status');
    expect(got.coverage.missing.join('\n')).toMatch(/status writes .*Data Access/);
    const deletes = got.events.filter((e) => e.actor.controller && e.verb === 'delete');
    expect(deletes.map((e) => [e.predicted, e.reason])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect(got.events.filter((e) => e.actor.controller && e.verb === 'create').every((e) => e.predicted === true)).toBe(true);
  });

  it('eks-truncated.json: the cut entries are counted and read without bodies; nothing is claimed on them', async () => {
    const got = await collect({ auditLogs: [join(CLOUD, 'eks-truncated.json')], namespace: 'demo' });
    expect(got.coverage.truncated).toBeGreaterThan(0);
    sameStory(got.events, plain.events);
    expect(got.events.filter((e) => /truncated/.test(e.message)).length).toBe(got.coverage.truncated);
    // a cut status write loses the status only: the create after it is judged as on the plain log
    const create = (es: HistoryEvent[]) => es.find((e) => e.verb === 'create' && e.pod === 'api-tjd76');
    expect(create(got.events)).toMatchObject({ predicted: true, reason: 'TooFewReplicas' });
    expect(create(got.events)?.predicted).toBe(create(plain.events)?.predicted);
  });

  it('the whole directory at once: every copy of every entry counted once', async () => {
    const got = await collect({ auditLogs: [CLOUD], namespace: 'demo' });
    sameEvents(got.events, plain.events);
    expect(got.coverage.duplicates).toBeGreaterThan(0);
  });

  it('pod/NAME on a GKE export tells the story with its causes, as on the plain log', async () => {
    const target = { kind: 'Pod' as const, name: 'api-cln6k' };
    const a = await collect({ auditLogs: [join(CLOUD, 'gke-gcloud.json')], target });
    const b = await collect({ auditLogs: [join(SHARED, 'audit.jsonl')], target });
    sameEvents(a.events, b.events);
    expect(a.events.find((e) => e.verb === 'delete')?.cause).toEqual([
      expect.objectContaining({ user: 'admin', verb: 'scale', field: 'spec.replicas', change: '4 → 1' }),
    ]);
  });
});

describe('the vendored fixtures of every format (no ../shared needed)', async () => {
  const plain = await collect({ auditLogs: [join(FIXTURES, 'kube-apiserver.jsonl')] });
  const files = readdirSync(FIXTURES).filter((f) => f !== 'README.md' && f !== 'kube-apiserver.jsonl');

  it('has a fixture of each format', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
    expect(plain.events.length).toBeGreaterThan(0);
  });

  for (const f of files) {
    it(`${f}: the same history as the plain log`, async () => {
      const got = await collect({ auditLogs: [join(FIXTURES, f)] });
      sameStory(got.events, plain.events, () => false);
    });
  }
});
