// An entry broken in the middle of a cloud export (an element cut or garbled, its Event's text
// invalid) is read as far as it goes, as a broken kube-apiserver line is: one notice names it, it
// counts as truncated, what it still tells of its write (verb, object, times) is kept without its
// bodies, and the rest of the file is read. What is about the whole file stays a one-line refusal.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/history/types.js';
import { readAuditLogs, type AuditReadOptions } from '../../src/input/audit-log.js';
import { AuditCoverage } from '../../src/input/audit/coverage.js';
import { readAsFarAsItGoes } from '../../src/input/audit/event.js';
import { HISTORY_WRITES } from '../../src/input/audit/filter.js';
import { buildHistory } from '../../src/services/history-service.js';
import { skipAllIf, withoutShared } from '../skips.js';
import { encoders, type Ev, podUpdateEvent } from './audit-encoders.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-audit-broken-'));
let seq = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const p = join(dir, `${++seq}-${name}`);
  writeFileSync(p, content);
  return p;
};

const t = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;
const ev = (s: number, name: string): Ev => podUpdateEvent(t(s), name);
const EVENTS = [ev(1, 'a'), ev(2, 'b'), ev(3, 'c')];

async function read(path: string, opts: AuditReadOptions = {}) {
  const coverage = new AuditCoverage();
  const lines = [];
  for await (const l of readAuditLogs([path], { ...opts, coverage })) lines.push(l);
  return { lines, coverage };
}

/** `text` with the first `from` after `marker` replaced by `to`. */
function breakAfter(text: string, marker: string, from: string, to: string): string {
  const m = text.indexOf(marker);
  const at = text.indexOf(from, m);
  expect(m >= 0 && at >= 0, `${marker} … ${from}`).toBe(true);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** The write b read as far as it goes: its verb, its object and its time, no bodies, marked truncated. */
function expectRecovered(got: Awaited<ReturnType<typeof read>>, name: RegExp, answer: 'kept' | 'lost', at = t(2)) {
  const { lines, coverage } = got;
  expect(lines.map((l) => (l.value as Ev).objectRef?.name)).toEqual(['a', 'b', 'c']);
  expect(lines.map((l) => l.truncated)).toEqual([false, true, false]);
  const b = lines[1].value as Ev;
  expect(b).toMatchObject({ verb: 'update', level: 'Metadata', objectRef: { resource: 'pods', namespace: 'ns', name: 'b' } });
  expect(b.annotations['audit.k8s.io/truncated']).toBe('true');
  expect(b.requestObject).toBeUndefined();
  expect(b.responseObject).toBeUndefined();
  expect(b.stageTimestamp).toBe(at);
  // the answer is kept when it was read whole, else whether the server accepted the write is unknown
  if (answer === 'kept') expect(b.responseStatus?.code).toBe(200);
  else expect(b.responseStatus).toBeUndefined();
  expect(coverage.notices).toEqual([expect.stringMatching(new RegExp(`${name.source}: not a .*: read as far as it goes, without its bodies$`))]);
  expect(coverage.truncated).toBe(1);
  expect(coverage.unrecovered).toBe(0);
}

describe('a broken entry of each cloud export is read as far as it goes', () => {
  it('GKE gcloud (a pretty array): an element garbled inside its protoPayload keeps methodName and resourceName', async () => {
    const text = breakAfter(encoders.gcloud(EVENTS), '"insertId": "id-b"', '"serviceName": "k8s.io"', '"serviceName": k8s.io');
    expectRecovered(await read(file('gcloud.json', text)), /gcloud\.json: byte \d+/, 'lost');
  });

  it('GKE gcloud: an element garbled in its request body (before resourceName) keeps the object it was authorised on', async () => {
    const text = breakAfter(encoders.gcloud(EVENTS), '"insertId": "id-b"', '"request": {', '"request": oops {');
    expectRecovered(await read(file('gcloud-body.json', text)), /gcloud-body\.json: byte \d+/, 'lost');
  });

  it("GKE gcloud: an element cut before its closing line is told from the next element's opening line, which is read", async () => {
    const text = encoders.gcloud(EVENTS);
    const b = text.indexOf('"insertId": "id-b"');
    const cut = text.indexOf('\n', text.indexOf('"resourceName"', b));
    const next = text.indexOf('\n  {', cut);
    const got = await read(file('gcloud-cut.json', text.slice(0, cut) + text.slice(next)));
    // newest first: c, b (cut), a; all three read
    expect(got.lines.map((l) => [(l.value as Ev).objectRef?.name, l.truncated])).toEqual([
      ['a', false],
      ['c', false],
      // its time was after the cut: it keeps the time of the entry before it in the file (newer)
      ['b', true],
    ]);
    expect(got.lines[2].value).toMatchObject({ verb: 'update', objectRef: { name: 'b' }, stageTimestamp: t(3) });
    expect(got.coverage.notices).toEqual([
      expect.stringMatching(/gcloud-cut\.json: byte \d+: not a JSON log entry .*: read as far as it goes, without its bodies$/),
    ]);
    expect(got.coverage.cutOff).toEqual([]);
  });

  it('GKE BigQuery (one line): a row garbled inside protopayload_auditlog', async () => {
    const text = breakAfter(encoders.bigquery(EVENTS), '"insertId": "id-b"', '"authenticationInfo": {', '"authenticationInfo": oops {');
    expectRecovered(await read(file('bq.json', text)), /bq\.json: byte \d+/, 'lost');
  });

  it('EKS CloudWatch: a message that is no JSON string (a bad escape) is read up to it', async () => {
    const text = breakAfter(encoders.cloudwatch(EVENTS), '\\"auditID\\":\\"id-b\\"', '\\"responseStatus\\"', '\\q\\"responseStatus\\"');
    expectRecovered(await read(file('cloudwatch.json', text)), /cloudwatch\.json: byte \d+/, 'lost');
  });

  it("EKS Logs Insights (the console's JSON): a broken @message", async () => {
    const text = breakAfter(encoders.insightsConsole(EVENTS), '\\"auditID\\":\\"id-b\\"', '\\"responseStatus\\"', '\\q\\"responseStatus\\"');
    expectRecovered(await read(file('insights-console.json', text)), /insights-console\.json: byte \d+/, 'lost');
  });

  it('AKS storage (PT1H.json lines): a record cut inside properties.log, the next line read', async () => {
    const lines = encoders.aksStorage(EVENTS, false).split('\n');
    const at = lines[1].indexOf('\\"responseStatus\\"');
    lines[1] = lines[1].slice(0, at + 12);
    // its times (the Event's and the record's) were after the cut: it keeps the time of the line before it
    expectRecovered(await read(file('PT1H.json', lines.join('\n'))), /PT1H\.json:2/, 'lost', t(1));
  });

  it('AKS Event Hub: a record broken before properties keeps nothing of its write: counted, without its object, and no claim', async () => {
    const text = breakAfter(encoders.eventHub(EVENTS), '"time": "2026-01-01T00:00:01', '"operationName": "', '"operationName": oops "');
    const { lines, coverage } = await read(file('eventhub.json', text));
    expect(lines.map((l) => [(l.value as Ev).objectRef?.name, (l.value as Ev).verb, l.truncated])).toEqual([
      ['a', 'update', false],
      [undefined, undefined, true],
      ['c', 'update', false],
    ]);
    expect(coverage.notices).toEqual([expect.stringMatching(/eventhub\.json: byte \d+: not a JSON record .*: read as far as it goes, without its bodies$/)]);
    expect(coverage.summary()).toMatch(/1 truncated \(read without bodies, 1 without their object\)/);
  });

  it('AKS Log Analytics (AKSAudit rows): a row broken after ResponseStatus keeps its columns before the break', async () => {
    const text = breakAfter(encoders.logAnalytics(EVENTS), '"AuditId": "id-b"', '"RequestObject": ', '"RequestObject": oops');
    expectRecovered(await read(file('la.json', text)), /la\.json: byte \d+/, 'kept');
  });

  it('AKS Log Analytics (AzureDiagnostics): log_s trimmed without its closing quote', async () => {
    const text = encoders.azureDiagnostics(EVENTS);
    const b = text.indexOf('\\"auditID\\":\\"id-b\\"');
    const at = text.indexOf('\\"responseStatus\\"', b);
    const end = text.indexOf('\n', at);
    const got = await read(file('diagnostics.json', text.slice(0, at + 12) + text.slice(end)));
    expectRecovered(got, /diagnostics\.json: byte \d+/, 'lost');
  });

  it('reads as far as it goes what is no JSON: the members before the break, and the string it is in', () => {
    expect(readAsFarAsItGoes('{"a": 1, "b": {"c": "x", "d": oops}, "e": 2}')).toEqual({ members: { a: 1, b: { c: 'x' } }, cut: ['b', 'd'], text: null });
    expect(readAsFarAsItGoes('{"a": 1, "log": "{\\"kind\\":\\"Ev\\u0065nt\\", \\"ver')).toEqual({
      members: { a: 1 },
      cut: ['log'],
      text: '{"kind":"Event", "ver',
    });
    expect(readAsFarAsItGoes('[1, 2')).toEqual({ members: {}, cut: [], text: null });
  });
});

describe('what a broken entry cannot be read past', () => {
  it('names the first ten broken entries of a file, and counts the rest in one line', async () => {
    const events = Array.from({ length: 14 }, (_, i) => ev(i + 1, `p${i}`));
    let text = encoders.logAnalytics(events);
    for (let i = 1; i <= 12; i++) text = breakAfter(text, `"AuditId": "id-p${i}"`, '"RequestObject": ', '"RequestObject": oops');
    const { lines, coverage } = await read(file('many.json', text));
    expect(lines.length).toBe(14);
    expect(coverage.notices.length).toBe(11);
    expect(coverage.notices[10]).toMatch(/many\.json: 2 more broken entries, read as far as they go, without their bodies$/);
  });

  it('garbage between the elements of an array: where the next element starts is not known, the file is refused in one line', async () => {
    const text = encoders.gcloud(EVENTS);
    const next = text.indexOf('\n  {', text.indexOf('"insertId": "id-b"'));
    await expect(read(file('garbage.json', `${text.slice(0, next)}\n  oops,${text.slice(next)}`))).rejects.toThrow(
      /^error parsing .*garbage\.json: byte \d+: an element that is not an object: not a whole JSON document$/,
    );
  });

  it('an element cut on one line (bq, a compact array): where the next starts is not known; the rest is said cut off', async () => {
    const text = encoders.gcloudOneLine(EVENTS);
    const b = text.indexOf('"insertId":"id-b"');
    const cut = text.indexOf('"resourceName"', b) + 20;
    const { lines, coverage } = await read(file('compact.json', text.slice(0, cut) + text.slice(text.indexOf('{"insertId":"id-a"'))));
    expect(lines.map((l) => (l.value as Ev).objectRef?.name)).toEqual(['c']);
    expect(coverage.cutOff).toEqual([expect.stringMatching(/compact\.json: cut off at byte \d+: read the 1 entry before it$/)]);
  });

  it('a file none of whose entries reads is refused, naming the first (entries the filter skipped unparsed read)', async () => {
    const text = breakAfter(encoders.gcloud([EVENTS[0]]), '"insertId": "id-a"', '"serviceName": "k8s.io"', '"serviceName": k8s.io');
    await expect(read(file('all-broken.json', text))).rejects.toThrow(/^error parsing .*all-broken\.json: byte \d+: not a JSON log entry/);
    const get = { ...ev(2, 'g'), verb: 'get', requestObject: undefined, responseObject: undefined };
    const withRead = breakAfter(encoders.gcloud([EVENTS[0], get]), '"insertId": "id-a"', '"serviceName": "k8s.io"', '"serviceName": k8s.io');
    const { lines, coverage } = await read(file('broken-and-read.json', withRead), { filter: HISTORY_WRITES });
    expect(lines.map((l) => [(l.value as Ev).objectRef?.name, l.truncated])).toEqual([['a', true]]);
    expect(coverage.files[0].skipped).toBe(1);
  });

  it('what is about the whole file stays a refusal: Logs Insights rows without @message, Log Analytics rows of another table', async () => {
    const insights = JSON.stringify({ results: [[{ field: '@timestamp', value: '2026-01-01 00:00:00.000' }]], status: 'Complete', statistics: {} });
    await expect(read(file('insights.json', insights))).rejects.toThrow(/insights\.json: byte \d+: Logs Insights results without @message/);
    const rows = JSON.stringify(
      [
        { TimeGenerated: t(1), AuditId: 'x', Verb: 'get' },
        { TimeGenerated: t(2), Computer: 'node-1' },
      ],
      null,
      2,
    );
    await expect(read(file('la-other.json', rows))).rejects.toThrow(/la-other\.json: byte \d+: not an AKSAudit, AKSAuditAdmin or AzureDiagnostics row/);
  });
});

describe('through the history: a broken entry of the demo export', () => {
  const CLOUD = join(import.meta.dirname, '../../../shared/history/demo/cloud');
  skipAllIf(withoutShared(CLOUD));

  async function history(path: string) {
    const r = await buildHistory({ auditLogs: [path], namespace: 'demo' });
    try {
      return { events: [...r.history.events], notices: r.notices, coverage: r.coverage };
    } finally {
      r.close();
    }
  }
  const row = (e: HistoryEvent) => `${e.time.slice(11, 23)} ${e.verb} ${e.controller?.name ?? '-'} ${e.pod ?? '-'}`;

  it('gke-gcloud.json with a status write cut: that write is unknown, the verdicts after it are still given', async () => {
    const plain = await history(join(CLOUD, 'gke-gcloud.json'));
    const text = readFileSync(join(CLOUD, 'gke-gcloud.json'), 'utf8');
    // the replication controller's status write of 02:52:52.326210, cut after its resourceName
    const at = text.indexOf('"timestamp": "2026-11-25T02:52:52.326210Z"');
    const start = text.lastIndexOf('\n  {\n', at);
    const cut = text.indexOf('\n', text.indexOf('"resourceName"', start));
    const got = await history(file('gke-gcloud-cut.json', text.slice(0, cut) + text.slice(text.indexOf('\n  {\n', at))));
    expect(got.notices).toContainEqual(
      expect.stringMatching(/gke-gcloud-cut\.json: byte \d+: not a JSON log entry .*: read as far as it goes, without its bodies$/),
    );
    expect(got.coverage.truncated).toBe(1);
    const status = (es: HistoryEvent[]) => es.filter((e) => e.verb === 'status');
    // every write is still there, the cut one too (at the time of the write before it in the file)
    expect(got.events.length).toBe(plain.events.length);
    expect(status(got.events).length).toBe(status(plain.events).length);
    const cutOne = got.events.find((e) => /truncated/.test(e.message));
    expect(cutOne).toMatchObject({ verb: 'status', predicted: null });
    // nothing turned false, and the controller's deletes and its later create are judged as on the whole log
    expect(got.events.some((e) => e.predicted === false)).toBe(false);
    const judged = (es: HistoryEvent[]) => es.filter((e) => e.actor.controller && e.verb !== 'status').map((e) => [row(e), e.predicted, e.reason]);
    expect(judged(got.events)).toEqual(judged(plain.events));
  });
});
