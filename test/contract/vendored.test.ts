// The vendored copies of ../shared files (test/contract/, tools/gen-snapshot.mjs) are what they
// say they are: the same text as their source when ../shared is there, and usable without it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SHARED_DIR, VENDOR_MARKER, sharedOrVendored, sharedPath, vendoredPath, withoutVendorNote } from './shared.js';
import { skipAllIf } from '../skips.js';

const hasShared = existsSync(SHARED_DIR);

describe('vendored copies of ../shared', () => {
  it('each vendored text file names its source and says that the ../shared copy is authoritative', () => {
    const files = [vendoredPath('tools/gen-snapshot.mjs'), ...readdirSync(vendoredPath('contract/cases')).map((f) => `${vendoredPath('contract/cases')}/${f}`)];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const note = text.slice(0, text.indexOf(VENDOR_MARKER));
      expect(note, f).toMatch(/Vendored copy of \.\.\/shared\/\S+/);
      expect(note, f).toContain('authoritative');
    }
    expect(readFileSync(new URL('./README.md', import.meta.url), 'utf8')).toContain('../shared/contract/cases.json');
  });

  it('the vendored cases.json bundles the vendored cases/*.yaml (same cases, same content)', () => {
    const bundle = JSON.parse(readFileSync(vendoredPath('contract/cases.json'), 'utf8'));
    const dir = vendoredPath('contract/cases');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    expect(bundle.map((c: any) => c.file)).toEqual(files);
    for (const c of bundle) {
      const y = parse(readFileSync(`${dir}/${c.file}`, 'utf8'));
      expect({ name: y.name, source: y.source, description: y.description, now: y.now, snapshot: y.snapshot, expect: y.expect, file: c.file }).toEqual(c);
    }
  });

  it('the vendored generator runs on its own and makes a List with unique uids', () => {
    const r = spawnSync(process.execPath, [vendoredPath('tools/gen-snapshot.mjs'), '--rs', '30', '--pods-per-rs', '3', '--seed', '5'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const list = JSON.parse(r.stdout);
    expect(list.kind).toBe('List');
    const uids = list.items.map((o: any) => o.metadata.uid);
    expect(list.items.filter((o: any) => o.kind === 'ReplicaSet')).toHaveLength(30);
    expect(new Set(uids).size).toBe(uids.length);
  });

  it('the tests use ../shared when it is there, the vendored copy when not', () => {
    for (const rel of ['tools/gen-snapshot.mjs', 'contract/cases.json', 'contract/cases']) {
      expect(sharedOrVendored(rel)).toBe(existsSync(sharedPath(rel)) ? sharedPath(rel) : vendoredPath(rel));
    }
  });

  describe('with ../shared present: each copy is still the same as its source', () => {
    skipAllIf(hasShared ? null : '../shared is absent (it comes beside the checkout): the vendored copies are not compared with their sources');
    it('tools/gen-snapshot.mjs', () => {
      expect(withoutVendorNote(readFileSync(vendoredPath('tools/gen-snapshot.mjs'), 'utf8'))).toBe(readFileSync(sharedPath('tools/gen-snapshot.mjs'), 'utf8'));
    });
    it('contract/cases.json', () => {
      expect(readFileSync(vendoredPath('contract/cases.json'), 'utf8')).toBe(readFileSync(sharedPath('contract/cases.json'), 'utf8'));
    });
    it('contract/cases/*.yaml', () => {
      const ours = readdirSync(vendoredPath('contract/cases')).sort();
      expect(ours).toEqual(
        readdirSync(sharedPath('contract/cases'))
          .filter((f) => f.endsWith('.yaml'))
          .sort(),
      );
      for (const f of ours) {
        expect(withoutVendorNote(readFileSync(`${vendoredPath('contract/cases')}/${f}`, 'utf8')), f).toBe(
          readFileSync(`${sharedPath('contract/cases')}/${f}`, 'utf8'),
        );
      }
    });
  });
});
