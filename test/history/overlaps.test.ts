// The log lists writes as they finished; a write received before a controller's write and finished
// after it may have reached storage first and been seen by the controller. A controller write the
// rules do not predict on the log's order is then unknown, with why: the log cannot tell the order.
// Where they do not overlap, it stays false.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHistory } from '../../src/services/history-service.js';

const DEMO = join(import.meta.dirname, 'fixtures', 'demo-audit.jsonl');
const RC_USER = 'system:serviceaccount:kube-system:replication-controller';

/** The demo plus an extra create by the controller (not predicted: its one replica runs), and `more`. */
async function historyWith(more: (extra: any, last: any) => any[]) {
  const events = readFileSync(DEMO, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const create = events.findLast((e) => e.verb === 'create' && e.objectRef.resource === 'pods' && e.user.username === RC_USER);
  const extra = structuredClone(create);
  extra.auditID = '00000000-0000-4000-8000-000000000001';
  extra.responseObject.metadata.name = 'api-extra';
  extra.responseObject.metadata.uid = '00000000-0000-4000-8000-0000000000e7';
  extra.requestReceivedTimestamp = '2026-11-25T02:52:59.100000Z';
  extra.stageTimestamp = '2026-11-25T02:52:59.102000Z';
  const dir = mkdtempSync(join(tmpdir(), 'rs-overlap-'));
  const file = join(dir, 'audit.jsonl');
  writeFileSync(file, [...events, extra, ...more(extra, events.at(-1))].map((e) => JSON.stringify(e)).join('\n') + '\n');
  try {
    const r = await buildHistory({ auditLogs: [file] });
    const all = [...r.history.events];
    r.close();
    return all.find((e) => e.pod === 'api-extra')!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A user's label patch of pod api-tjd76, received and finished when given. */
function patch(last: any, received: string, finished: string) {
  const pod = structuredClone(last.responseObject?.kind === 'Pod' ? last.responseObject : null);
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'RequestResponse',
    auditID: '00000000-0000-4000-8000-000000000002',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/demo/pods/api-tjd76',
    verb: 'patch',
    user: { username: 'admin' },
    userAgent: 'kubectl/v1.32.4',
    objectRef: { resource: 'pods', namespace: 'demo', name: 'api-tjd76', apiVersion: 'v1' },
    responseStatus: { code: 200 },
    requestObject: { metadata: { labels: { team: 'x' } } },
    responseObject: pod,
    requestReceivedTimestamp: received,
    stageTimestamp: finished,
  };
}

describe('writes the log cannot order', () => {
  it('a controller write not predicted stays false when nothing overlaps it', async () => {
    const e = await historyWith(() => []);
    expect(e.predicted).toBe(false);
  });

  it('is unknown when another write was received before it and finished after it', async () => {
    const e = await historyWith((_x, last) => [patch(last, '2026-11-25T02:52:59.099000Z', '2026-11-25T02:52:59.105000Z')]);
    expect(e.predicted).toBeNull();
    expect(e.reason).toBeNull();
    expect(e.message).toMatch(
      /^created pod api-extra; unknown: not what the rules do on the log's order of writes, but admin's patch of pod api-tjd76, received at 2026-11-25T02:52:59.099000Z, may have reached storage before it/,
    );
  });

  it('stays false when the other write was received after it finished', async () => {
    const e = await historyWith((_x, last) => [patch(last, '2026-11-25T02:52:59.103000Z', '2026-11-25T02:52:59.105000Z')]);
    expect(e.predicted).toBe(false);
  });
});
