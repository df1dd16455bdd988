// A history too long for memory: its events on disk (read back whole, characters straddling
// reads included), put in time order within the reorder window, written out item by item, and
// its table drawn in parts that line up as one table would.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/history/types.js';
import { renderOutput } from '../../src/render/formats.js';
import { historyTableChunks, TABLE_PART_ROWS } from '../../src/render/history.js';
import { EventSpool } from '../../src/services/event-spool.js';
import { buildHistory } from '../../src/services/history-service.js';
import { ensureBuilt, ROOT } from '../e2e/cli.js';

const event = (i: number, extra: Partial<HistoryEvent> = {}): HistoryEvent => ({
  time: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000).toISOString().replace('Z', '000Z'),
  actor: { user: i % 3 === 0 ? 'system:serviceaccount:kube-system:replicaset-controller' : 'admin', controller: i % 3 === 0 },
  verb: i % 2 ? 'delete' : 'create',
  controller: { kind: 'ReplicaSet', namespace: 'ns', name: `web-${i % 7}` },
  pod: `web-${'x'.repeat(i % 13)}-${i}`,
  reason: i % 3 === 0 ? 'TooFewReplicas' : null,
  message: `message ${i} ✓ ünïcödé`,
  predicted: i % 3 === 0 ? true : null,
  cause: null,
  ...extra,
});

describe('EventSpool', () => {
  it('reads back every item in order, over many reads, multi-byte characters included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-test-'));
    const spool = new EventSpool<HistoryEvent>(dir);
    const items = Array.from({ length: 12_000 }, (_, i) => event(i));
    for (const e of items) spool.push(e);
    expect(spool.length).toBe(items.length);
    expect([...spool]).toEqual(items);
    expect([...spool]).toEqual(items); // as often as needed
    spool.close();
    expect(readdirSync(dir)).toEqual([]);
    spool.close(); // again: nothing
  });

  it('a process that exits with a spool open leaves no file behind', () => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'spool-exit-'));
    const script = `import('${join(ROOT, 'dist/services/event-spool.js')}').then(({ EventSpool }) => { const s = new EventSpool(${JSON.stringify(dir)}); s.push({ a: 1 }); process.exit(3); })`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('views of a spooled list', () => {
  it('-o json and -o yaml write it item by item, exactly as they write an array', () => {
    const items = Array.from({ length: 30 }, (_, i) => event(i));
    const spool = new EventSpool<HistoryEvent>();
    for (const e of items) spool.push(e);
    const doc = { apiVersion: 'rs-reconcile/v1alpha1', kind: 'ReconcileHistory', events: spool };
    const arrayDoc = { ...doc, events: items };
    for (const format of ['json', 'yaml']) {
      const streamed = [...renderOutput(format, { document: () => doc })];
      expect(streamed.join('')).toBe([...renderOutput(format, { document: () => arrayDoc })].join(''));
      expect(streamed.length).toBeGreaterThan(30); // in pieces, not one string
    }
    const empty = new EventSpool<HistoryEvent>();
    expect([...renderOutput('json', { document: () => ({ events: empty }) })].join('')).toBe(JSON.stringify({ events: [] }, null, 2) + '\n');
    expect([...renderOutput('yaml', { document: () => ({ events: empty }) })].join('')).toBe('events: []\n');
    spool.close();
    empty.close();
  });

  it('the table in parts lines up as one table: same widths in every part, one header', () => {
    const n = TABLE_PART_ROWS * 2 + 17;
    const items = Array.from({ length: n }, (_, i) => event(i));
    const o = { chalk: new Chalk({ level: 0 }), wide: false };
    const parts = [...historyTableChunks(items, o)];
    expect(parts.length).toBe(3);
    const lines = parts.join('').trimEnd().split('\n');
    expect(lines.length).toBe(n + 1);
    expect(lines.filter((l) => l.startsWith('TIME')).length).toBe(1);
    // every row's PREDICTED column starts where the header's does
    const col = lines[0].indexOf('PREDICTED');
    for (const l of lines.slice(1)) expect(l.slice(col).trim(), l).toMatch(/^(yes|-)$/);
  });
});

describe('buildHistory puts events in received-time order and keeps nothing in memory beyond the window', () => {
  it('orders writes answered out of order; leaves no file behind after close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hist-order-'));
    const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000).toISOString().replace('Z', '000Z');
    const line = (received: number, answered: number, name: string) =>
      JSON.stringify({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'RequestResponse',
        stage: 'ResponseComplete',
        verb: 'create',
        user: { username: 'admin' },
        objectRef: { resource: 'replicasets', namespace: 'ns', name, apiGroup: 'apps', apiVersion: 'v1' },
        responseStatus: { code: 201 },
        requestObject: {},
        responseObject: {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name, namespace: 'ns', uid: `u-${name}` },
          spec: { replicas: 1, selector: { matchLabels: { a: name } }, template: { metadata: { labels: { a: name } } } },
        },
        requestReceivedTimestamp: at(received),
        stageTimestamp: at(answered),
      });
    // b was received first but answered after a; c comes long after both
    const log = join(dir, 'audit.log');
    writeFileSync(log, [line(10, 11, 'a'), line(9, 70, 'b'), line(400, 401, 'c')].join('\n') + '\n');
    const spoolDir = mkdtempSync(join(tmpdir(), 'hist-spool-'));
    const r = await buildHistory({ auditLogs: [log], spoolDir });
    expect([...r.history.events].map((e) => e.controller?.name)).toEqual(['b', 'a', 'c']);
    expect(r.history.from).toBe(at(9));
    expect(r.history.to).toBe(at(400));
    r.close();
    expect(readdirSync(spoolDir)).toEqual([]);
    // a failed run leaves nothing either
    await expect(buildHistory({ auditLogs: [log], spoolDir, target: { kind: 'Pod', name: 'none' } })).rejects.toThrow('pod none has no write in the audit log');
    expect(readdirSync(spoolDir)).toEqual([]);
    expect(existsSync(log)).toBe(true);
  });
});
