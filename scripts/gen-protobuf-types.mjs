#!/usr/bin/env node
// Generates src/sandbox/protobuf/types.generated.ts, the table of the Kubernetes API messages the
// sandbox decodes from protobuf, from a checkout of k8s.io/api and one of k8s.io/apimachinery:
//
//   node scripts/gen-protobuf-types.mjs <k8s.io/api dir> <k8s.io/apimachinery dir> [out file]
//
// Field numbers, protobuf names and protobuf types come from each package's generated.proto (what
// go-to-protobuf wrote); JSON names, Go struct order, omitempty, pointers and inlined structs come
// from the `json:` and `protobuf:` tags and Go types of the same structs in the package's .go
// files (the .proto does not carry them). Only the messages reachable from the roots go in: the
// `protobuf:` message of every kind in src/sandbox/kinds/*.ts, the subresource bodies (Binding,
// Scale), and the envelope and request messages every group version decodes (DeleteOptions,
// Status, runtime.Unknown). The kinds' messages are written out as ROOT_KINDS too.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');

/** Table prefix → [which checkout, folder in it, protobuf package]. */
const PACKAGES = {
  'core.v1': ['api', 'core/v1', 'k8s.io.api.core.v1'],
  'apps.v1': ['api', 'apps/v1', 'k8s.io.api.apps.v1'],
  'autoscaling.v1': ['api', 'autoscaling/v1', 'k8s.io.api.autoscaling.v1'],
  'coordination.v1': ['api', 'coordination/v1', 'k8s.io.api.coordination.v1'],
  'meta.v1': ['apimachinery', 'pkg/apis/meta/v1', 'k8s.io.apimachinery.pkg.apis.meta.v1'],
  runtime: ['apimachinery', 'pkg/runtime', 'k8s.io.apimachinery.pkg.runtime'],
  intstr: ['apimachinery', 'pkg/util/intstr', 'k8s.io.apimachinery.pkg.util.intstr'],
  resource: ['apimachinery', 'pkg/api/resource', 'k8s.io.apimachinery.pkg.api.resource'],
};

/**
 * Messages whose JSON is not their struct (each has its own MarshalJSON upstream: Time, MicroTime,
 * Quantity, IntOrString, FieldsV1): their rows are the .proto fields as they are, no flags.
 */
const SPECIAL = new Set(['meta.v1.Time', 'meta.v1.MicroTime', 'meta.v1.FieldsV1', 'resource.Quantity', 'intstr.IntOrString']);

/** Decoded by every group version: DeleteOptions bodies, Status answers, the protobuf envelope. */
const ALWAYS = ['meta.v1.DeleteOptions', 'meta.v1.Status', 'runtime.Unknown'];

/**
 * Fields of a newer API the table keeps on purpose, with why (comment lines before the row), after
 * the field they follow in that version's struct. terminatingReplicas: k8s.io/api v0.33.0
 * apps/v1/types.go, `protobuf:"varint,7,opt,name=terminatingReplicas"`.
 */
const KEPT_FROM_NEWER = [
  {
    message: 'apps.v1.ReplicaSetStatus',
    after: 'availableReplicas',
    lines: [
      '// Not in v1.32: added in v1.33 (KEP-3973, DeploymentReplicaSetTerminatingReplicas). Kept so',
      '// that snapshots of newer clusters (the bundled examples carry it) apply under Strict, as on',
      '// every server from v1.33; a v1.32 server refuses it as an unknown field.',
      ['terminatingReplicas', 7, 'int32', 'po'],
    ],
  },
];

const SCALARS = new Set(['string', 'bool', 'int32', 'int64', 'bytes']);

function usage() {
  console.error('usage: node scripts/gen-protobuf-types.mjs <k8s.io/api dir> <k8s.io/apimachinery dir> [out file]');
  process.exit(2);
}

/**
 * Bodies of subresources, which no kind file declares as its own message: a pod's binding and the
 * scale subresource (served as autoscaling/v1 Scale).
 */
const SUBRESOURCE_ROOTS = { 'v1/Binding': 'core.v1.Binding', 'autoscaling/v1/Scale': 'autoscaling.v1.Scale' };

/** The kinds' messages by `apiVersion/kind`: each kind file's group, version, kind and `protobuf: '…'`. */
function rootKinds() {
  const out = {};
  const kindsDir = join(REPO, 'src/sandbox/kinds');
  for (const f of readdirSync(kindsDir).sort()) {
    const text = readFileSync(join(kindsDir, f), 'utf8');
    const message = /\bprotobuf: '([^']+)'/.exec(text)?.[1];
    if (!message) continue;
    const [kind, group, version] = ['kind', 'group', 'version'].map((k) => new RegExp(`\\b${k}: '([^']*)'`).exec(text)?.[1]);
    if (kind === undefined || group === undefined || !version || !message.endsWith(`.${kind}`)) {
      throw new Error(`${f}: cannot tell the kind of protobuf: '${message}' (kind ${kind}, group ${group}, version ${version})`);
    }
    out[`${group ? `${group}/` : ''}${version}/${kind}`] = message;
  }
  return { ...out, ...SUBRESOURCE_ROOTS };
}

/** generated.proto: message → fields { name, number, type (table name or scalar), repeated, map }. */
function parseProto(text, pkg, prefixOf) {
  const messages = new Map();
  const re = /^message (\w+) \{([\s\S]*?)^\}/gm;
  for (const m of text.matchAll(re)) {
    const fields = new Map();
    for (const line of m[2].split('\n')) {
      const l = line.trim();
      if (l.startsWith('//') || l === '') continue;
      const mapField = /^map<string, ([\w.]+)> (\w+) = (\d+);$/.exec(l);
      if (mapField) {
        fields.set(mapField[2], { name: mapField[2], number: Number(mapField[3]), type: prefixOf(mapField[1], pkg), repeated: false, map: true });
        continue;
      }
      const f = /^(optional|repeated) ([\w.]+) (\w+) = (\d+);$/.exec(l);
      if (!f) throw new Error(`${pkg}.${m[1]}: cannot read "${l}"`);
      fields.set(f[3], { name: f[3], number: Number(f[4]), type: prefixOf(f[2], pkg), repeated: f[1] === 'repeated', map: false });
    }
    messages.set(m[1], fields);
  }
  return messages;
}

/** The Go structs of a package: struct → fields in order { goType, json, protobuf tag }. */
function parseGo(dir) {
  const structs = new Map();
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.go') || f.endsWith('_test.go') || f.startsWith('zz_generated') || f === 'generated.pb.go') continue;
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields = [];
      for (const line of m[2].split('\n')) {
        const l = line.trim();
        if (l === '' || l.startsWith('//')) continue;
        const tag = /`([^`]*)`/.exec(l)?.[1] ?? '';
        const decl = l
          .replace(/`[^`]*`/, '')
          .replace(/\/\/.*$/, '')
          .trim()
          .split(/\s+/);
        const embedded = decl.length === 1;
        fields.push({
          goName: embedded ? decl[0].replace(/^\*/, '').split('.').pop() : decl[0],
          goType: embedded ? decl[0] : decl[1],
          json: /json:"([^"]*)"/.exec(tag)?.[1],
          protobuf: /protobuf:"([^"]*)"/.exec(tag)?.[1],
        });
      }
      structs.set(m[1], fields);
    }
  }
  return structs;
}

/** Reads every package: the proto messages and the Go structs, by table name (`core.v1.Pod`). */
function readPackages(dirs) {
  const byProtoPkg = new Map(Object.entries(PACKAGES).map(([prefix, [, , pkg]]) => [pkg, prefix]));
  const prefixOf = (t, pkg) => {
    if (SCALARS.has(t)) return t;
    t = t.replace(/^\./, ''); // a fully qualified reference (.k8s.io.apimachinery…)
    const dot = t.lastIndexOf('.');
    const p = dot < 0 ? pkg : t.slice(0, dot);
    const prefix = byProtoPkg.get(p);
    if (!prefix) return `?${t}`; // a package the sandbox does not use; unreachable if unused
    return `${prefix}.${t.slice(dot + 1)}`;
  };
  const proto = new Map();
  const go = new Map();
  for (const [prefix, [which, folder, pkg]] of Object.entries(PACKAGES)) {
    const dir = join(dirs[which], folder);
    for (const [name, fields] of parseProto(readFileSync(join(dir, 'generated.proto'), 'utf8'), pkg, prefixOf)) proto.set(`${prefix}.${name}`, fields);
    for (const [name, fields] of parseGo(dir)) go.set(`${prefix}.${name}`, fields);
  }
  return { proto, go };
}

/** One message's rows: [json, number, type, flags?, proto name?] in Go struct order. */
function rowsOf(name, { proto, go }) {
  const pf = proto.get(name);
  if (!pf) throw new Error(`no message ${name} in the .proto files`);
  if (SPECIAL.has(name)) return [...pf.values()].map((f) => [f.name, f.number, f.type]);
  const gf = go.get(name);
  if (!gf) throw new Error(`no Go struct for ${name}`);
  const rows = [];
  for (const g of gf) {
    if (!g.protobuf || g.protobuf === '-') continue; // e.g. an inlined TypeMeta of a kind: not in the message
    // The tag names the proto field, or (EphemeralContainer's embedded Common: `bytes,1,req`) only its number.
    const number = Number(g.protobuf.split(',')[1]);
    const protoName = /name=(\w+)/.exec(g.protobuf)?.[1] ?? [...pf.values()].find((x) => x.number === number)?.name;
    const f = pf.get(protoName);
    if (!f) throw new Error(`${name}.${g.goName}: no proto field for protobuf:"${g.protobuf}"`);
    if (number !== f.number) throw new Error(`${name}.${protoName}: tag and .proto disagree`);
    const [jsonName = undefined, ...opts] = g.json === undefined ? [] : g.json.split(',');
    // Only runtime.Unknown has untagged fields here: its JSON is Raw itself (Unknown.MarshalJSON).
    const json = g.json === undefined ? '-' : jsonName;
    let flags = '';
    if (f.repeated) flags += 'r';
    if (f.map) flags += 'm';
    if (g.goType.startsWith('*')) flags += 'p';
    if (opts.includes('omitempty')) flags += 'o';
    if (opts.includes('inline')) flags += 'i';
    const row = [json, f.number, f.type];
    if (flags || protoName !== json) row.push(flags);
    if (protoName !== json) row.push(protoName);
    rows.push(row);
  }
  for (const k of KEPT_FROM_NEWER.filter((x) => x.message === name)) {
    const at = rows.findIndex((r) => r[0] === k.after);
    if (at < 0) throw new Error(`${name}: no field ${k.after} to keep ${k.lines.at(-1)[0]} after`);
    rows.splice(at + 1, 0, ...k.lines);
  }
  return rows;
}

/** Every message reachable from the roots, breadth first (roots first, then fields in order). */
function reachable(rootNames, pkgs) {
  const out = new Map();
  const queue = [...rootNames];
  while (queue.length) {
    const name = queue.shift();
    if (out.has(name)) continue;
    const rows = rowsOf(name, pkgs);
    out.set(name, rows);
    for (const r of rows) if (Array.isArray(r) && !SCALARS.has(r[2]) && !out.has(r[2])) queue.push(r[2]);
  }
  return out;
}

/** Which commit (and tag) of which repository a checkout is, when it is a git work tree. */
function provenance(dir, fallback) {
  try {
    const sha = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const tag = execFileSync('git', ['-C', dir, 'describe', '--tags', '--exact-match', '--match', 'v*'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return `${fallback} ${tag} (${sha})`;
  } catch {
    return process.env[`GEN_PROVENANCE_${basename(fallback).toUpperCase()}`] ?? `${fallback} (${dir})`;
  }
}

const fmt = (v) => (typeof v === 'number' ? String(v) : `'${v}'`);

function render(messages, kinds, sources) {
  const lines = [
    '// GENERATED FILE: do not edit by hand.',
    `// Generated by \`node scripts/gen-protobuf-types.mjs <k8s.io/api> <k8s.io/apimachinery>\` from`,
    ...sources.map((s) => `//   ${s}`),
    '// Field numbers, wire types and message names are from the generated.proto files; JSON names,',
    '// field order, omitempty, pointer and inline are from the `json:` tags and Go types of the same',
    "// structs. Only messages reachable from ROOT_KINDS (the sandbox's kinds, src/sandbox/kinds/*.ts",
    '// `protobuf:`, and subresource bodies), DeleteOptions, Status and runtime.Unknown are here. Fields of a newer',
    '// version kept on purpose (KEPT_FROM_NEWER in the script) carry their reason as a comment.',
    '//',
    '// Each row: [json name, field number, type, flags?, protobuf name?] where type is a scalar',
    '// (string, bool, int32, int64, bytes) or a message of this table, and flags are',
    '// r = repeated, m = map<string, type>, p = pointer (nil when absent), o = omitempty,',
    "// i = inline (its JSON fields sit in the parent; json name ''). The protobuf name is given only",
    '// where it differs from the json name.',
    "import type { MessageTable } from './rows.js';",
    '',
    '/** The kinds whose bodies can be decoded, by `apiVersion/kind`; DeleteOptions is in every group version. */',
    'export const ROOT_KINDS: Readonly<Record<string, string>> = {',
    ...Object.entries(kinds).map(([k, v]) => `  '${k}': '${v}',`),
    '};',
    '',
    'export const MESSAGES: MessageTable = {',
  ];
  for (const [name, rows] of messages) {
    lines.push(`  '${name}': [`);
    for (const r of rows) lines.push(typeof r === 'string' ? `    ${r}` : `    [${r.map(fmt).join(', ')}],`);
    lines.push('  ],');
  }
  lines.push('};', '');
  return lines.join('\n');
}

const [apiDir, machineryDir, outArg] = process.argv.slice(2);
if (!apiDir || !machineryDir) usage();
const pkgs = readPackages({ api: resolve(apiDir), apimachinery: resolve(machineryDir) });
const kinds = rootKinds();
const messages = reachable([...new Set([...Object.values(kinds), ...ALWAYS])], pkgs);
const out = resolve(outArg ?? join(REPO, 'src/sandbox/protobuf/types.generated.ts'));
const sources = [provenance(resolve(apiDir), 'github.com/kubernetes/api'), provenance(resolve(machineryDir), 'github.com/kubernetes/apimachinery')];
writeFileSync(out, render(messages, kinds, sources));
console.log(`${relative(process.cwd(), out)}: ${messages.size} messages`);
