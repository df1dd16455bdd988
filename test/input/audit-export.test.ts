// A throw-away audit export added through the seams a new history input format touches (its
// module, here the `exampleVault` object, and the AUDIT_EXPORTS list of
// src/input/audit/formats/index.ts), then recognised from its content, read in time order,
// filtered, and accounted for in the coverage by the real reading path: nothing else in
// src/input needs to know about it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditLogs, type AuditReadOptions } from '../../src/input/audit-log.js';
import { AuditCoverage } from '../../src/input/audit/coverage.js';
import { HISTORY_WRITES } from '../../src/input/audit/filter.js';
import { isAuditFormat, AUDIT_EXPORTS } from '../../src/input/audit/formats/index.js';
import type { AuditLine } from '../../src/input/audit/sources.js';
import { EntryError } from '../../src/input/audit/entry.js';
import { cutEvent, readAsFarAsItGoes } from '../../src/input/audit/event.js';
import { isObj } from '../../src/core/guards.js';
import { auditExport } from '../../src/input/audit/formats/format.js';
import { stringOf, timeOf } from '../../src/input/audit/keys.js';
import { essentials, type Ev } from './audit-encoders.js';

const FIX = join(import.meta.dirname, 'fixtures/audit');
const NO_AGENT = 'example-vault-no-agent';
const AGENTS_MISSING = "user agents: the example vault's records do not keep them";

// An imaginary archive: one record a line, newest first, `{"recordedAt", "cluster", "event"}`,
// or the same records as a document's `auditTrail`. Records of the other cluster are another log.
const exampleVault = auditExport({
  name: 'example-vault',
  description: 'the example vault (a test): {"recordedAt", "cluster", "event"} records',
  recognise: { precedence: 45, entry: (m) => m.has('recordedAt') && m.has('event'), wrappers: ['auditTrail'] },
  entries: {
    read(text, ctx) {
      const r = JSON.parse(text);
      if (!isObj(r) || !isObj(r.event)) throw new EntryError('not a vault record (a JSON object with an event)');
      if (r.cluster !== 'prod') return null;
      const { userAgent: _, ...ev } = r.event;
      ctx.coverage.note(NO_AGENT);
      return ev;
    },
    // a broken record: its event as far as it goes
    recover: (text, ctx) => {
      const { members, cut } = readAsFarAsItGoes(text);
      return cutEvent(isObj(members.event) ? { ...members.event } : {}, ctx.fallbackUs, cut[0] === 'event');
    },
    rawTime: (b, s, e) => timeOf(b, s, e, 'recordedAt'),
    // the first `resource` is the event's objectRef's
    outside: (b, s, e, f) => {
      const r = stringOf(b, s, e, 'resource');
      return r !== null && !f.resources.has(r);
    },
  },
  missing: (seen) => (seen.noted(NO_AGENT) ? [AGENTS_MISSING] : []),
});

const base: Ev[] = readFileSync(join(FIX, 'kube-apiserver.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));
const records = [...base].reverse().map((event) => ({ recordedAt: event.stageTimestamp, cluster: 'prod', event }));
const other = { recordedAt: base[3].stageTimestamp, cluster: 'staging', event: base[3] };
const withoutAgent = (e: Ev) => ({ ...essentials(e), userAgent: undefined });

let dir: string;
let lines: string;
let document: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-reconcile-vault-'));
  lines = join(dir, 'vault.jsonl');
  writeFileSync(lines, [...records.slice(0, 4), other, ...records.slice(4)].map((r) => JSON.stringify(r)).join('\n') + '\n');
  document = join(dir, 'vault.json');
  writeFileSync(document, JSON.stringify({ auditTrail: records }, null, 2));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(inputs: string[], opts: AuditReadOptions = {}): Promise<{ lines: AuditLine[]; coverage: AuditCoverage }> {
  const coverage = new AuditCoverage();
  const out: AuditLine[] = [];
  for await (const l of readAuditLogs(inputs, { ...opts, coverage })) out.push(l);
  return { lines: out, coverage };
}

describe('an audit export not in the list', () => {
  it('is no audit log', async () => {
    expect(isAuditFormat('example-vault')).toBe(false);
    await expect(read([lines])).rejects.toThrow(/not an audit log: a JSON object with members recordedAt, cluster, event/);
  });
});

describe('an audit export added through its module and the AUDIT_EXPORTS list only', () => {
  beforeAll(() => {
    AUDIT_EXPORTS.push(exampleVault);
  });
  afterAll(() => {
    AUDIT_EXPORTS.splice(AUDIT_EXPORTS.indexOf(exampleVault), 1);
  });

  it('is a format --audit-log-format takes', () => {
    expect(isAuditFormat('example-vault')).toBe(true);
  });

  it('is recognised in JSON lines, read in time order, the other log left out, and its facts told', async () => {
    const { lines: got, coverage } = await read([lines]);
    expect(coverage.formats).toEqual(['example-vault']);
    expect(got.map((l) => withoutAgent(l.value as Ev))).toEqual(base.map(withoutAgent));
    expect(got.every((l) => (l.format as string) === 'example-vault' && (l.value as Ev).userAgent === undefined)).toBe(true);
    expect(got.map((l) => l.line)).toEqual([10, 9, 8, 7, 6, 4, 3, 2, 1]);
    expect(coverage.files[0]).toMatchObject({ entries: 9, ignored: 1, skipped: 0 });
    expect(coverage.notices).toEqual([`${lines}: 1 entry of other logs left out (not kube-apiserver audit events)`]);
    expect(coverage.missing).toEqual([AGENTS_MISSING]);
    expect(coverage.format).toBe('example-vault');
    expect(coverage.summary()).toBe(`example-vault: 9 entries from 1 file; missing: ${AGENTS_MISSING}`);
  });

  it('is recognised by its document wrapper, and read to the same events', async () => {
    const { lines: got, coverage } = await read([document]);
    expect(coverage.formats).toEqual(['example-vault']);
    expect(got.map((l) => withoutAgent(l.value as Ev))).toEqual(base.map(withoutAgent));
  });

  it("leaves out unparsed what the filter does not want, by the module's raw test", async () => {
    const { lines: got, coverage } = await read([lines], { filter: HISTORY_WRITES });
    const wanted = base.filter((e) => HISTORY_WRITES.resources.has(e.objectRef.resource));
    expect(wanted.length).toBeLessThan(base.length);
    expect(got.map((l) => (l.value as Ev).auditID)).toEqual(wanted.map((e) => e.auditID));
    expect(coverage.files[0].skipped).toBe(base.length - wanted.length);
  });

  it('is merged with the built-in exports, each event once', async () => {
    const { lines: got, coverage } = await read([lines, join(FIX, 'kube-apiserver.jsonl')]);
    expect(coverage.formats).toEqual(['example-vault', 'kube-apiserver']);
    expect(coverage.duplicates).toBe(base.length);
    expect(got.map((l) => (l.value as Ev).auditID)).toEqual(base.map((e) => e.auditID));
  });

  it('reads a file of another shape with its own reader when forced', async () => {
    const format = 'example-vault' as AuditReadOptions['format'];
    await expect(read([join(FIX, 'kube-apiserver.jsonl')], { format })).rejects.toThrow(
      /kube-apiserver\.jsonl: not a vault record \(a JSON object with an event\) \(line 1\)/,
    );
  });
});
