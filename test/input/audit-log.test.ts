// Reading audit logs: plain and gzip, several files merged in time order, bad input refused in one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readAuditLogs } from '../../src/input/audit-log.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-audit-'));
const ev = (at: string, name: string) => JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', stageTimestamp: at, objectRef: { name } });

async function names(files: string[], opts = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const l of readAuditLogs(files, opts)) out.push((l.value as { objectRef: { name: string } }).objectRef.name);
  return out;
}

describe('readAuditLogs', () => {
  it('merges a rotated gzip file and the current plain one (and a second server) in time order', async () => {
    const old = join(dir, 'audit.log.1.gz');
    writeFileSync(old, gzipSync([ev('2026-01-01T00:00:01.000000Z', 'a'), ev('2026-01-01T00:00:03.000000Z', 'c')].join('\n') + '\n'));
    const cur = join(dir, 'audit.log');
    writeFileSync(cur, [ev('2026-01-01T00:00:05.000000Z', 'e'), '', ev('2026-01-01T00:00:06.000000Z', 'f')].join('\n'));
    const other = join(dir, 'apiserver-2.log');
    writeFileSync(other, [ev('2026-01-01T00:00:02.000000Z', 'b'), ev('2026-01-01T00:00:04.000000Z', 'd')].join('\n') + '\n');
    let last = 0;
    expect(await names([cur, other, old], { onBytes: (r: number) => (last = r) })).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(last).toBeGreaterThan(0);
  });

  it('keeps the order of one file between lines (the order the server answered)', async () => {
    const f = join(dir, 'unordered.log');
    writeFileSync(f, [ev('2026-01-01T00:00:02.000000Z', 'x'), ev('2026-01-01T00:00:01.000000Z', 'y')].join('\n'));
    expect(await names([f])).toEqual(['x', 'y']);
  });

  it('refuses bad input with one line naming the file and line', async () => {
    const bad = join(dir, 'bad.log');
    writeFileSync(bad, ev('2026-01-01T00:00:01Z', 'a') + '\n{"kind": oops}\n');
    await expect(names([bad])).rejects.toThrow(/^.*bad\.log:2: not a JSON audit event \(/);
    await expect(names([join(dir, 'missing.log')])).rejects.toThrow(/cannot read audit log .*missing\.log: no such file/);
    const endless = join(dir, 'endless.log');
    writeFileSync(endless, 'x'.repeat(200_000));
    await expect(names([endless], { maxLineBytes: 100_000 })).rejects.toThrow(/endless\.log:1: a line longer than 97.7Ki/);
    const corrupt = join(dir, 'corrupt.gz');
    writeFileSync(corrupt, Buffer.concat([gzipSync('{"kind":"Event"}\n').subarray(0, 12), Buffer.from('garbage')]));
    await expect(names([corrupt])).rejects.toThrow(/cannot read audit log .*corrupt\.gz/);
  });
});
