#!/usr/bin/env node
// Bundles test/conformance/cases/*.yaml into one JSON array in the shape of
// ../shared/contract/cases.json ({name, source, description, now, snapshot, expect, file}), so the
// real CLI checker can run them:
//
//   node test/conformance/build-bundle.mjs                      # writes test/conformance/cases.json
//   CHECK_CASES=test/conformance/cases.json node ../shared/contract/check.mjs .
//
// Options: an output path as first argument ("-" for stdout); --with-shared also bundles
// ../shared/contract/cases/*.yaml (after ours), or their vendored copy (test/contract/cases)
// where there is no ../shared.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));

export function bundle({ withShared = false } = {}) {
  const dirs = [join(here, 'cases')];
  if (withShared) {
    const shared = resolve(here, '../../../shared/contract/cases');
    dirs.push(existsSync(shared) ? shared : resolve(here, '../contract/cases'));
  }
  const out = [];
  for (const dir of dirs) {
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort()) {
      const c = parse(readFileSync(join(dir, file), 'utf8'));
      for (const k of ['name', 'now', 'snapshot', 'expect']) {
        if (c?.[k] === undefined) throw new Error(`${file}: missing "${k}"`);
      }
      out.push({ name: c.name, source: c.source, description: c.description, now: c.now, snapshot: c.snapshot, expect: c.expect, file });
    }
  }
  const names = new Set();
  for (const c of out) {
    if (names.has(c.name)) throw new Error(`duplicate case name ${c.name}`);
    names.add(c.name);
  }
  return out;
}

export function render(cases) {
  return JSON.stringify(cases, null, 1) + '\n';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const withShared = args.includes('--with-shared');
  const target = args.find((a) => !a.startsWith('--')) ?? join(here, 'cases.json');
  const cases = bundle({ withShared });
  if (target === '-') process.stdout.write(render(cases));
  else {
    writeFileSync(target, render(cases));
    console.error(`${cases.length} cases → ${target}`);
  }
}
