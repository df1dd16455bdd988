// Reading audit logs: plain and gzip, files and directories, several files merged in time order,
// duplicates left out, cut documents and cut entries read as far as they go, bad input refused in
// one line naming the file and line (or byte).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readAuditLogs, type AuditReadOptions } from '../../src/input/audit-log.js';
import { AuditCoverage } from '../../src/input/audit/coverage.js';
import { HISTORY_WRITES } from '../../src/input/audit/filter.js';
import { whereOf, type AuditLine } from '../../src/input/audit/sources.js';
import { encoders, type Ev, podUpdateEvent } from './audit-encoders.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-audit-'));
let seq = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const p = join(dir, `${++seq}-${name}`);
  writeFileSync(p, content);
  return p;
};
const ev = podUpdateEvent;
const line = (at: string, name: string, extra: Ev = {}) => JSON.stringify(ev(at, name, extra));
const t = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;

async function read(files: string[], opts: AuditReadOptions = {}): Promise<{ lines: AuditLine[]; coverage: AuditCoverage; names: string[] }> {
  const coverage = opts.coverage ?? new AuditCoverage();
  const lines: AuditLine[] = [];
  for await (const l of readAuditLogs(files, { ...opts, coverage })) lines.push(l);
  return { lines, coverage, names: lines.map((l) => (l.value as Ev).objectRef?.name) };
}
const names = async (files: string[], opts: AuditReadOptions = {}) => (await read(files, opts)).names;

describe('readAuditLogs: kube-apiserver JSON lines', () => {
  it('merges a rotated gzip file and the current plain one (and a second server) in time order', async () => {
    const old = file('audit.log.1.gz', gzipSync([line(t(1), 'a'), line(t(3), 'c')].join('\n') + '\n'));
    const cur = file('audit.log', [line(t(5), 'e'), '', line(t(6), 'f')].join('\n'));
    const other = file('apiserver-2.log', [line(t(2), 'b'), line(t(4), 'd')].join('\n') + '\n');
    let last = 0;
    let whole = 0;
    expect(await names([cur, other, old], { onBytes: (r: number, total: number) => ((last = r), (whole = total)) })).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(last).toBe(whole);
  });

  it('keeps the order of one file between lines (the order the server answered)', async () => {
    const f = file('unordered.log', [line(t(2), 'x'), line(t(1), 'y')].join('\n'));
    expect(await names([f])).toEqual(['x', 'y']);
  });

  it('sorts a file written newest first (Loki, a reversed export), and says so', async () => {
    const f = file('newest-first.log', [5, 4, 3, 2, 1].map((s) => line(t(s), `p${s}`)).join('\n') + '\n');
    const { names: got, coverage } = await read([f]);
    expect(got).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(coverage.notices).toEqual([expect.stringMatching(/newest-first\.log: not in time order .*sorted by stageTimestamp/)]);
  });

  it('reports entries of a file read in its own order that are more than a minute back', async () => {
    const lines = [line(t(1), 'a'), line('2026-01-01T00:05:00.000000Z', 'b'), line(t(30), 'c'), line('2026-01-01T00:06:00.000000Z', 'd')];
    const { names: got, coverage } = await read([file('jump.log', lines.join('\n') + '\n')]);
    expect(got).toEqual(['a', 'b', 'c', 'd']);
    expect(coverage.files[0].outOfOrder).toBe(1);
    expect(coverage.notices).toEqual([expect.stringMatching(/jump\.log: 1 entry is more than a minute earlier .*jump\.log:3/)]);
  });

  it('a byte order mark (written by Windows tools) is no part of the first entry', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const evs = [ev(t(1), 'a'), ev(t(2), 'b')];
    for (const text of [encoders.kubeLines(evs), encoders.gcloud(evs), encoders.insightsCsv(evs), encoders.nodeLogs(evs)]) {
      expect(await names([file('bom.log', Buffer.concat([bom, Buffer.from(text)]))])).toEqual(['a', 'b']);
    }
  });

  it('tells line numbers and offsets, and where an entry is', async () => {
    const f = file('where.log', ['', line(t(1), 'a'), line(t(2), 'b')].join('\n') + '\n');
    const { lines } = await read([f]);
    expect(lines.map((l) => [l.line, whereOf(l)])).toEqual([
      [2, `${f}:2`],
      [3, `${f}:3`],
    ]);
    expect(lines[0].offset).toBe(1);
    expect(lines[0].atUs).toBe(Date.parse(t(1)) * 1000);
    expect(lines[0].at).toBe(t(1));
  });

  it('a line the filter certainly does not want is skipped unparsed; one it is unsure of is read', async () => {
    const get = line(t(1), 'get', { verb: 'get' });
    const started = line(t(2), 'started', { stage: 'ResponseStarted' });
    const lease = JSON.stringify(
      ev(t(3), 'lease', {
        requestURI: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1',
        objectRef: { resource: 'leases', namespace: 'kube-node-lease', name: 'lease', apiGroup: 'coordination.k8s.io', apiVersion: 'v1' },
      }),
    );
    const write = line(t(4), 'write');
    const rs = JSON.stringify(
      ev(t(5), 'rs', {
        requestURI: '/apis/apps/v1/namespaces/ns/replicasets/rs/status',
        objectRef: { resource: 'replicasets', namespace: 'ns', name: 'rs', subresource: 'status' },
      }),
    );
    // another member order: not skipped (the parse decides)
    const reordered = JSON.stringify({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Event',
      verb: 'get',
      auditID: 'x',
      stageTimestamp: t(6),
      objectRef: { name: 'reordered' },
    });
    const garbage =
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"q","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/ns/events","verb":"create", oops}';
    const f = file('filtered.log', [get, started, lease, write, rs, reordered].join('\n') + '\n');
    const { names: got, coverage } = await read([f], { filter: HISTORY_WRITES });
    expect(got).toEqual(['write', 'rs', 'reordered']);
    expect(coverage.files[0].skipped).toBe(3);
    // a skipped line is not parsed: its malformed tail goes unseen
    expect(await names([file('skipped-bad.log', garbage + '\n' + write + '\n')], { filter: HISTORY_WRITES })).toEqual(['write']);
  });

  it('reads on past a record broken in the middle, counting it and naming its line; refuses other bad input with one line', async () => {
    const broken = `${line(t(2), 'b').slice(0, 180)} oops`;
    const bad = file('bad.log', [line(t(1), 'a'), '{"kind": oops}', broken, line(t(3), 'c')].join('\n') + '\n');
    const got = await read([bad]);
    // the rest of the file is read; what the broken records say is kept (read as cut entries, without bodies)
    expect(got.names.filter((n) => n !== undefined)).toEqual(['a', 'b', 'c']);
    expect(got.lines.filter((l) => l.truncated).length).toBe(2);
    expect(got.coverage.notices).toEqual([
      expect.stringMatching(/bad\.log:2: not a JSON audit event \(.*\): read as far as it goes, without its bodies$/),
      expect.stringMatching(/bad\.log:3: not a JSON audit event \(.*\): read as far as it goes, without its bodies$/),
    ]);
    await expect(names([join(dir, 'missing.log')])).rejects.toThrow(/^the path ".*missing\.log" does not exist$/);
    const endless = file('endless.log', line(t(1), 'a') + '\n' + '{"kind":"Event",' + 'x'.repeat(200_000));
    await expect(names([endless], { maxLineBytes: 100_000 })).rejects.toThrow(/^error parsing .*endless\.log: a line longer than 97.7Ki.* \(line 2\)$/);
    const corrupt = file('corrupt.gz', Buffer.concat([gzipSync('{"kind":"Event"}\n').subarray(0, 12), Buffer.from('garbage')]));
    await expect(names([corrupt])).rejects.toThrow(/^error reading .*corrupt\.gz: /);
  });
});

describe('readAuditLogs: what is not an audit log', () => {
  it.each([
    [
      'garbage.txt',
      'hello world\nthis is not json\n',
      /^error parsing .*garbage\.txt: not a JSON audit event, nor any other audit export: it starts with "hello world" \(expected kube-apiserver JSON lines, gcloud.* \(line 1\)$/,
    ],
    [
      'binary.bin',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      /binary\.bin: a binary file, not an audit log \(a NUL byte at byte 8\)/,
    ],
    ['archive.zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), /archive\.zip: a zip archive: unpack it first/],
    ['list.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }, null, 2), /list\.json: not an audit log: a JSON document of kind List/],
    ['object.jsonl', '{"hello":"world"}\n', /object\.jsonl: not an audit log: a JSON object with members hello.* \(line 1\)$/],
    ['numbers.json', '[1, 2, 3]', /numbers\.json: not an audit log: a JSON array of values/],
    ['empty.log', '', /empty\.log: an empty file: no audit events in it/],
    ['blank.log', '\n\n  \n', /blank\.log: an empty file/],
    [
      'recording.jsonl',
      '{"kind":"Recording","apiVersion":"rs-reconcile/v1","time":"2026-01-01T00:00:00Z"}\n',
      /recording\.jsonl: a recording of rs-reconcile record, not an audit log: give it with --recording \(line 1\)$/,
    ],
    ['latin1.log', Buffer.from('caf\xe9 au lait \xff\xfe', 'latin1'), /latin1\.log: a binary file, not an audit log \(not UTF-8 text\)/],
  ])('%s', async (name, content, message) => {
    await expect(names([file(name, content)])).rejects.toThrow(message);
  });

  it('a malformed element of a document is read as far as it goes, naming the byte (audit-broken.test.ts: every export)', async () => {
    const doc = `[\n  ${JSON.stringify({ protoPayload: { serviceName: 'k8s.io', methodName: 'io.k8s.core.v1.pods.get' }, logName: 'x', timestamp: t(1) })},\n  {"protoPayload": oops}\n]\n`;
    const { lines, coverage } = await read([file('bad-array.json', doc)]);
    expect(lines.map((l) => l.truncated)).toEqual([false, true]);
    expect(coverage.notices).toEqual([
      expect.stringMatching(/bad-array\.json: byte \d+: not a JSON log entry \(.*\): read as far as it goes, without its bodies$/),
    ]);
  });

  it('Logs Insights results without @message: says which query to run', async () => {
    const doc = JSON.stringify({ results: [[{ field: '@timestamp', value: '2026-01-01 00:00:00.000' }]], status: 'Complete', statistics: {} });
    await expect(names([file('insights.json', doc)])).rejects.toThrow(
      /insights\.json: byte \d+: Logs Insights results without @message: run the query with `fields @timestamp, @message`/,
    );
  });
});

describe('readAuditLogs: documents', () => {
  const events = [1, 2, 3, 4, 5].map((s) =>
    ev(t(s), `p${s}`, { verb: 'create', objectRef: { resource: 'pods', namespace: 'ns', apiVersion: 'v1' }, responseStatus: { metadata: {}, code: 201 } }),
  );

  it('a gcloud array on one line, newest first, comes out in time order', async () => {
    const { lines, coverage } = await read([file('one-line.json', encoders.gcloudOneLine(events))]);
    expect(lines.map((l) => (l.value as Ev).objectRef.name)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(coverage.formats).toEqual(['gke-cloud-logging']);
  });

  it('a document cut off mid-way gives the entries before the cut, and says where', async () => {
    const whole = encoders.gcloud(events);
    const cut = whole.slice(0, Math.floor(whole.length * 0.7));
    const f = file('cut.json', cut);
    const { lines, coverage } = await read([f]);
    // newest first: the cut loses the oldest
    const got = lines.map((l) => (l.value as Ev).objectRef.name);
    expect(got).toEqual(['p3', 'p4', 'p5'].slice(3 - got.length));
    expect(got.length).toBeGreaterThan(0);
    expect(coverage.cutOff).toEqual([`${f}: cut off at byte ${Buffer.byteLength(cut)}: read the ${got.length} entries before it`]);
    expect(coverage.files[0].cutOff).toBe(`byte ${Buffer.byteLength(cut)}`);
  });

  it('a gzip download cut off mid-way, and a log whose last line is being written, are read up to the cut', async () => {
    const text = encoders.kubeLines(events);
    const gz = gzipSync(text);
    const f = file('cut.log.gz', gz.subarray(0, Math.floor(gz.length * 0.8)));
    const { lines, coverage } = await read([f]);
    expect(lines.length).toBeLessThan(5);
    expect(coverage.cutOff).toEqual([expect.stringMatching(/cut\.log\.gz: cut off at line \d+: read the \d+ entr(y|ies) before it/)]);
    const g = file('writing.log', text.slice(0, text.length - 40));
    const r = await read([g]);
    expect(r.lines).toHaveLength(4);
    expect(r.coverage.cutOff).toEqual([`${g}: cut off at line 5: read the 4 entries before it`]);
  });

  it('CloudWatch documents: events of other streams, and other messages, are left out and counted', async () => {
    const doc = JSON.parse(encoders.cloudwatch(events));
    doc.events.push({ logStreamName: 'authenticator-0123', timestamp: 1, message: 'time="x" level=info msg="access granted"' });
    doc.events.push({ logStreamName: 'kube-apiserver-audit-1', timestamp: 2, message: 'I1125 02:52:48.000 some klog line' });
    const { lines, coverage } = await read([file('cw.json', JSON.stringify(doc, null, 4))]);
    expect(lines).toHaveLength(5);
    expect(coverage.ignored).toBe(2);
    expect(coverage.notices).toEqual([expect.stringMatching(/cw\.json: 2 entries of other logs left out/)]);
  });

  it('documents have no line limit: an element of 3 MiB, in a pretty array and in one line', async () => {
    const big = ev(t(2), 'big', { responseObject: { kind: 'Pod', metadata: { name: 'big', annotations: { blob: 'y'.repeat(3 * 1024 * 1024) } } } });
    const small = [ev(t(1), 'a'), ev(t(3), 'c')];
    for (const text of [encoders.gcloud([...small, big]), encoders.gcloudOneLine([...small, big]), encoders.cloudwatch([...small, big])]) {
      const { lines } = await read([file('big.json', text)], { maxLineBytes: 1024 * 1024 });
      expect(lines.map((l) => (l.value as Ev).objectRef.name)).toEqual(['a', 'big', 'c']);
      expect((lines[1].value as Ev).responseObject.metadata.annotations.blob).toHaveLength(3 * 1024 * 1024);
    }
  });

  it('an empty gcloud array is no error: nothing in it', async () => {
    const { lines, coverage } = await read([file('none.json', '[]\n')]);
    expect(lines).toEqual([]);
    expect(coverage.notices).toEqual([expect.stringMatching(/none\.json: an empty list/)]);
  });

  it('get-log-events, and CloudWatch subscription payloads concatenated as Firehose writes them', async () => {
    const getLogEvents = JSON.stringify(
      {
        events: events.map((e) => ({ timestamp: Date.parse(e.stageTimestamp), message: JSON.stringify(e), ingestionTime: 1 })),
        nextForwardToken: 'f/1',
        nextBackwardToken: 'b/1',
      },
      null,
      4,
    );
    const ids = (r: { lines: AuditLine[] }) => r.lines.map((l) => (l.value as Ev).auditID);
    expect(ids(await read([file('get-log-events.json', getLogEvents)]))).toEqual(['id-p1', 'id-p2', 'id-p3', 'id-p4', 'id-p5']);
    const payload = (es: Ev[]) =>
      JSON.stringify({
        messageType: 'DATA_MESSAGE',
        owner: '1',
        logGroup: '/aws/eks/c/cluster',
        logStream: 'kube-apiserver-audit-1',
        subscriptionFilters: ['f'],
        logEvents: es.map((e, i) => ({ id: String(i), timestamp: Date.parse(e.stageTimestamp), message: JSON.stringify(e) })),
      });
    const control = JSON.stringify({
      messageType: 'CONTROL_MESSAGE',
      logEvents: [{ id: '', timestamp: 1, message: 'CWL CONTROL MESSAGE: Checking health of destination Firehose.' }],
    });
    const r = await read([file('firehose', payload(events.slice(3)) + control + payload(events.slice(0, 3)))]);
    const coverage = r.coverage;
    expect(ids(r)).toEqual(['id-p1', 'id-p2', 'id-p3', 'id-p4', 'id-p5']);
    expect(coverage.formats).toEqual(['eks-cloudwatch']);
    expect(coverage.ignored).toBe(1);
  });

  it('several Event Hub messages one after another (one a line)', async () => {
    const text = JSON.parse(encoders.eventHub(events.slice(0, 2))) as Ev;
    const text2 = JSON.parse(encoders.eventHub(events.slice(2))) as Ev;
    const { names: got } = await read([file('hub.jsonl', `${JSON.stringify(text2)}\n${JSON.stringify(text)}\n`)]);
    expect(got.length).toBe(5);
  });
});

describe('readAuditLogs: duplicates', () => {
  it('an event seen twice (same auditID and stage) is read once; its stages are not duplicates', async () => {
    const a = line(t(1), 'a');
    const received = line(t(1), 'a', { stage: 'RequestReceived' });
    const f = file('twice.log', [received, a, a, line(t(2), 'b')].join('\n') + '\n');
    const { names: got, coverage } = await read([f, f]);
    expect(got).toEqual(['a', 'a', 'b']);
    expect(coverage.duplicates).toBe(5);
  });

  it('a whole copy of a truncated entry (from another export of the same log) takes its place', async () => {
    const whole = ev(t(3), 'web-1', { responseObject: { kind: 'Pod', metadata: { name: 'web-1', labels: { big: 'x'.repeat(300) } } } });
    const text = JSON.stringify(whole);
    const cut = text.slice(0, text.indexOf('"responseObject"') + 40) + '[Truncated...]';
    // CloudWatch keeps milliseconds: its cut copy sorts before the whole one
    const doc = { events: [{ logStreamName: 'kube-apiserver-audit-1', timestamp: Date.parse(t(3)), message: cut }] };
    const cw = file('cw-cut-copy.json', JSON.stringify(doc));
    const jsonl = file('whole-copy.log', [line(t(2), 'a'), JSON.stringify(whole), line(t(4), 'b')].join('\n') + '\n');
    const { lines, coverage } = await read([cw, jsonl]);
    expect(lines.map((l) => [(l.value as Ev).objectRef.name, l.truncated])).toEqual([
      ['a', false],
      ['web-1', false],
      ['b', false],
    ]);
    expect((lines[1].value as Ev).responseObject.metadata.labels.big).toHaveLength(300);
    expect(coverage.truncated).toBe(0);
    expect(coverage.duplicates).toBe(1);
    expect(coverage.files.map((f) => f.duplicates)).toEqual([1, 0]);
    // with no whole copy, the cut one comes out, in its place
    const alone = await read([cw, file('no-copy.log', [line(t(2), 'a'), line(t(4), 'b')].join('\n') + '\n')]);
    expect(alone.lines.map((l) => [(l.value as Ev).objectRef.name, l.truncated])).toEqual([
      ['a', false],
      ['web-1', true],
      ['b', false],
    ]);
    expect(alone.coverage.truncated).toBe(1);
  });

  it('remembers IDs for a window of log time only', async () => {
    const a = line(t(1), 'a');
    const f = file('late-copy.log', [a, line(t(30), 'b'), a.replace(t(1), t(59))].join('\n') + '\n');
    expect(await names([f], { dedupWindowMs: 10_000 })).toEqual(['a', 'b', 'a']);
    expect(await names([f])).toEqual(['a', 'b']);
  });
});

describe('readAuditLogs: truncated entries', () => {
  const pod = ev(t(3), 'web-1', {
    verb: 'patch',
    requestURI: '/api/v1/namespaces/shop/pods/web-1/status?fieldManager=kubelet',
    objectRef: { resource: 'pods', namespace: 'shop', name: 'web-1', apiVersion: 'v1', subresource: 'status' },
    requestObject: { status: { phase: 'Running' } },
    responseObject: { kind: 'Pod', metadata: { name: 'web-1', labels: { big: 'x'.repeat(40_000) } } },
  });
  const text = JSON.stringify(pod);
  const check = (l: AuditLine, recovered = true) => {
    const e = l.value as Ev;
    expect(l.truncated).toBe(true);
    expect(e.level).toBe('Metadata');
    expect(e.requestObject).toBeUndefined();
    expect(e.responseObject).toBeUndefined();
    expect(e.annotations['audit.k8s.io/truncated']).toBe('true');
    if (recovered) {
      expect(e).toMatchObject({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', auditID: 'id-web-1', verb: 'patch', user: { username: 'u' } });
      expect(e.objectRef).toMatchObject({ resource: 'pods', namespace: 'shop', name: 'web-1', subresource: 'status' });
    }
  };

  it("CloudWatch's [Truncated...]: read as far as it goes, the times from CloudWatch's own", async () => {
    const cut = text.slice(0, text.indexOf('"requestObject"') + 200) + '[Truncated...]';
    const doc = {
      events: [
        { logStreamName: 'kube-apiserver-audit-1', timestamp: Date.parse(t(3)), message: cut },
        { logStreamName: 'kube-apiserver-audit-1', timestamp: Date.parse(t(4)), message: line(t(4), 'next') },
      ],
    };
    const { lines, coverage } = await read([file('cw-cut.json', JSON.stringify(doc, null, 4))]);
    check(lines[0]);
    expect((lines[0].value as Ev).stageTimestamp).toBe('2026-01-01T00:00:03.000000Z');
    expect(lines[1].truncated).toBe(false);
    expect(coverage.truncated).toBe(1);
    expect(coverage.summary()).toMatch(/1 truncated \(read without bodies\)/);
  });

  it('a message cut inside objectRef: the object from the requestURI', async () => {
    const cut = text.slice(0, text.indexOf('"subresource"') + 5) + '[Truncated...]';
    const { lines } = await read([file('s3-cut.log', `2026-01-01T00:00:03.000Z ${cut}\n`)]);
    check(lines[0]);
  });

  it('a message cut before its object: still an Event, counted as unrecovered', async () => {
    const cut = text.slice(0, 120) + '[Truncated...]';
    const doc = { events: [{ logStreamName: 'kube-apiserver-audit-1', timestamp: Date.parse(t(3)), message: cut }] };
    const { lines, coverage } = await read([file('cw-early.json', JSON.stringify(doc))]);
    check(lines[0], false);
    expect((lines[0].value as Ev).auditID).toBe('id-web-1');
    expect(coverage.unrecovered).toBe(1);
  });

  it("AKS storage's properties.log cut at 16 KiB", async () => {
    const rec = { category: 'kube-audit', operationName: 'x', properties: { log: text.slice(0, 16 * 1024), stream: 'stdout' }, time: t(3) };
    const { lines } = await read([file('PT1H.json', JSON.stringify(rec) + '\n')]);
    check(lines[0]);
    expect((lines[0].value as Ev).stageTimestamp).toBe(t(3));
  });

  it('AKSAudit bodies "skipped-too-big-size-object", and AzureDiagnostics log_s trimmed', async () => {
    const la = JSON.parse(encoders.logAnalytics([pod]));
    la[0].ResponseObject = 'skipped-too-big-size-object';
    const { lines } = await read([file('la.json', JSON.stringify(la, null, 2))]);
    check(lines[0]);
    const diag = [{ TimeGenerated: t(3), Category: 'kube-audit', log_s: text.slice(0, 32_766) }];
    const r = await read([file('diag.json', JSON.stringify(diag, null, 2))]);
    check(r.lines[0]);
  });

  it('the audit.k8s.io/truncated annotation (kube-apiserver) and label (GKE)', async () => {
    const marked: Ev = { ...pod, annotations: { 'audit.k8s.io/truncated': 'true' } };
    delete marked.requestObject;
    delete marked.responseObject;
    const { lines } = await read([file('marked.log', JSON.stringify(marked) + '\n')]);
    check(lines[0]);
    const g = await read([file('marked-gke.json', encoders.gcloud([marked]))]);
    check(g.lines[0]);
    expect(g.coverage.truncated).toBe(1);
  });
});

describe('readAuditLogs: files and directories', () => {
  it('walks directories, leaves out listings and READMEs, refuses an empty file given by name only', async () => {
    const d = join(dir, 'tree');
    mkdirSync(join(d, 'a', 'b'), { recursive: true });
    writeFileSync(join(d, 'a', 'one.log'), line(t(1), 'one') + '\n');
    writeFileSync(join(d, 'a', 'b', 'two.log.gz'), gzipSync(line(t(2), 'two') + '\n'));
    writeFileSync(join(d, 'README.md'), '# not a log\n');
    writeFileSync(join(d, 'a', 'x.audit_logs_listing'), 'node audit.log\n');
    writeFileSync(join(d, 'a', 'empty.log'), '');
    const extra = file('three.log', line(t(3), 'three') + '\n');
    const { names: got, coverage } = await read([extra, d]);
    expect(got).toEqual(['one', 'two', 'three']);
    expect(coverage.files.map((f) => f.file.slice(dir.length + 1))).toEqual([
      extra.slice(dir.length + 1),
      'tree/a/empty.log',
      'tree/a/one.log',
      'tree/a/b/two.log.gz',
    ]);
    expect(coverage.files.find((f) => f.file.endsWith('empty.log'))!.format).toBeNull();
    await expect(names([join(d, 'a', 'empty.log')])).rejects.toThrow(/an empty file/);
    const none = join(dir, 'nothing');
    mkdirSync(none);
    await expect(names([none])).rejects.toThrow(/audit log directory .*nothing holds no file to read/);
  });

  it('a must-gather: only audit_logs is read, its files named openshift-must-gather', async () => {
    const { coverage, lines } = await read([join(import.meta.dirname, 'fixtures/audit/ocp-must-gather')]);
    expect(coverage.formats).toEqual(['openshift-must-gather']);
    expect(coverage.files.map((f) => f.file.split('/').pop())).toEqual(['master-0-audit.log.gz', 'master-1-audit.log.gz']);
    expect(lines).toHaveLength(9);
  });

  it('the spools of gzip inputs read in two passes are removed when done', async () => {
    const spoolDir = mkdtempSync(join(dir, 'spool-'));
    const f = file('export.gz', encoders.s3([ev(t(2), 'b'), ev(t(1), 'a')]));
    expect(await names([f], { spoolDir })).toEqual(['a', 'b']);
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});

describe('readAuditLogs: a forced format', () => {
  it('reads every input as that format', async () => {
    // oc adm node-logs for one named node: no prefix; told as kube-apiserver without the flag
    const f = file('one-node.log', [line(t(2), 'b'), line(t(1), 'a')].join('\n') + '\n');
    const { coverage, names: got } = await read([f], { format: 'openshift-node-logs' });
    expect(coverage.formats).toEqual(['openshift-node-logs']);
    expect(got).toEqual(['a', 'b']);
    const g = await read([f]);
    expect(g.coverage.formats).toEqual(['kube-apiserver']);
  });

  it('a forced format that does not fit the content fails on its first entry, naming it', async () => {
    const f = file('not-gke.log', line(t(1), 'a') + '\n');
    const { lines } = await read([f], { format: 'gke-cloud-logging' });
    expect(lines).toEqual([]); // no protoPayload: not a GKE audit entry, left out
    await expect(names([f], { format: 'aks-log-analytics' })).rejects.toThrow(
      /^error parsing .*not-gke\.log: not an AKSAudit, AKSAuditAdmin or AzureDiagnostics row.* \(line 1\)$/,
    );
  });
});

describe('readAuditLogs: the demo log (test/history/fixtures)', () => {
  it('reads the real kube-apiserver v1.32 log as it is', async () => {
    const f = join(import.meta.dirname, '../history/fixtures/demo-audit.jsonl');
    const { lines, coverage } = await read([f]);
    expect(lines.map((l) => l.value)).toEqual(
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    expect(coverage.summary()).toBe('kube-apiserver: 36 entries from 1 file');
    expect(existsSync(f)).toBe(true);
  });
});
