#!/usr/bin/env node
// `npm run release` (= npm run build && node scripts/release.mjs): the krew release.
//
//   release/rs-reconcile-<version>-<os>-<arch>.tar.gz   linux and darwin × amd64 and arm64, windows/amd64
//   plugins/rs-reconcile.yaml                            the krew Plugin manifest, sha256 filled in
//
// By default each archive holds a single executable (scripts/sea.mjs: Node.js and the bundle in one
// file, no Node.js needed on the machine):
//   kubectl-rs_reconcile[.exe]      the executable kubectl runs (krew's bin)
//   kubectl_complete-rs_reconcile   kubectl 1.26+ runs it to complete "kubectl rs-reconcile …" (not on windows)
//   THIRD-PARTY-NOTICES.txt  examples/  LICENSE  README.md  CHANGELOG.md
// The executables are kept in release/sea-<os>-<arch>/ too (the bench times this machine's).
//
// With --no-sea (no registry at hand, or a smaller download) every archive holds the same
// JavaScript instead, for linux and darwin:
//   kubectl-rs_reconcile            the launcher kubectl runs (POSIX sh): node lib/start.cjs "$@"
//   kubectl_complete-rs_reconcile   kubectl 1.26+ runs it to complete "kubectl rs-reconcile …"
//   lib/                            the bundle (dist/bundle: no node_modules needed), start.cjs
//   examples/  LICENSE  README.md  CHANGELOG.md
// The archives are reproducible: entries sorted, fixed owner and mtime (SOURCE_DATE_EPOCH, else
// 1980-01-01), gzip without a timestamp, so the same bundle always gives the same sha256.
//
// Options: --out DIR (default release/), --manifest FILE (default plugins/rs-reconcile.yaml),
// --base-url URL (where the archives will be downloaded from; default
// <homepage>/releases/download/v<version>), --platforms linux/amd64,darwin/arm64,…, --no-sea
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CORE_SCHEMA, dump } from 'js-yaml';
import { buildSea } from './sea.mjs';

// built by `npm run build`, which `npm run release` runs first
const { RESOLVE_SCRIPT_DIR } = await import(new URL('../dist/cli/shell.js', import.meta.url).href);

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = pkg.version;
const outDir = resolve(opt('out', join(root, 'release')));
const manifestPath = resolve(opt('manifest', join(root, 'plugins', 'rs-reconcile.yaml')));
const homepage = pkg.homepage;
const baseUrl = (
  opt('base-url', process.env.RS_RECONCILE_RELEASE_BASE_URL) ?? (homepage ? `${homepage.replace(/\/+$/, '')}/releases/download/v${version}` : undefined)
)?.replace(/\/+$/, '');
const sea = !argv.includes('--no-sea');
const platforms = opt(
  'platforms',
  sea ? 'linux/amd64,linux/arm64,darwin/amd64,darwin/arm64,windows/amd64' : 'linux/amd64,linux/arm64,darwin/amd64,darwin/arm64',
)
  .split(',')
  .map((p) => p.trim().split('/'));
const bundle = join(root, 'dist', 'bundle');

if (!homepage) fail('package.json has no "homepage": krew needs one');
if (!baseUrl) fail('no download location: pass --base-url or set "homepage" in package.json');
if (!existsSync(join(bundle, 'run.js')) || !existsSync(join(bundle, 'oclif.manifest.json')))
  fail('dist/bundle is missing: run `npm run build` first (or `npm run release`, which builds)');
for (const [os, arch] of platforms) if (!os || !arch) fail(`invalid --platforms entry ${os}/${arch}: expected OS/ARCH`);

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(2);
}

const minNode = /(\d+)\.(\d+)/.exec(pkg.engines?.node ?? '>=20.19') ?? ['', '20', '19'];
const [nodeMajor, nodeMinor] = [Number(minNode[1]), Number(minNode[2])];

/** The launcher kubectl runs. Follows its symlinks (krew links it into ~/.krew/bin). */
const LAUNCHER = `#!/bin/sh
# kubectl-rs_reconcile ${version}: kubectl runs it as "kubectl rs-reconcile". rs-reconcile is
# JavaScript: it runs lib/start.cjs with the Node.js on PATH (or $RS_RECONCILE_NODE), which must
# be ${nodeMajor}.${nodeMinor} or newer.
${RESOLVE_SCRIPT_DIR}
node=\${RS_RECONCILE_NODE:-node}
if ! command -v "$node" >/dev/null 2>&1; then
  echo "error: kubectl rs-reconcile needs Node.js >= ${nodeMajor}.${nodeMinor} on PATH (no \\"$node\\" found): install it from https://nodejs.org or your package manager" >&2
  exit 2
fi
RS_RECONCILE_INVOKED_AS=kubectl-rs_reconcile exec "$node" "$dir/lib/start.cjs" "$@"
`;

/** Checks the Node.js version in syntax any Node.js parses, then starts the ESM bundle. */
const START = `'use strict';
// Started by the kubectl-rs_reconcile launcher: one line instead of a syntax error on an old Node.js.
var v = process.versions.node.split('.').map(Number);
if (v[0] < ${nodeMajor} || (v[0] === ${nodeMajor} && v[1] < ${nodeMinor})) {
  process.stderr.write('error: kubectl rs-reconcile needs Node.js >= ${nodeMajor}.${nodeMinor}, but "' + process.execPath + '" is ' + process.version + ': install a newer one from https://nodejs.org (or point RS_RECONCILE_NODE at it)\\n');
  process.exit(2);
}
var entry = require('url').pathToFileURL(require('path').join(__dirname, 'run.js')).href;
// the commands run from the bundle's single file (boot.cjs); what it leaves goes to oclif (run.js)
require('./boot.cjs')
  .run(process.argv.slice(2))
  .then(function (handled) {
    if (!handled) return new Function('u', 'return import(u)')(entry);
  })
  .catch(function (e) {
    process.stderr.write('error: ' + (e && e.message ? e.message : String(e)) + '\\n');
    process.exit(2);
  });
`;

const HELPER = execOutput(['completion', 'kubectl']);

function execOutput(args) {
  // the helper script comes from the CLI itself (src/commands/completion.ts), run from the bundle
  const r = spawnSyncNode([join(bundle, 'run.js'), ...args]);
  if (r.status !== 0) fail(`\`${args.join(' ')}\` failed: ${r.stderr}`);
  return r.stdout;
}

function spawnSyncNode(args) {
  return spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

/** Every file of a directory, recursively, as paths relative to it (sorted). */
function walk(dir, base = dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full, base));
    else out.push(relative(base, full));
  }
  return out;
}

/** The archive's entries: [path, contents, mode]. */
function entries() {
  const list = [
    ['kubectl-rs_reconcile', Buffer.from(LAUNCHER), 0o755],
    ['kubectl_complete-rs_reconcile', Buffer.from(HELPER), 0o755],
    ['LICENSE', readFileSync(join(root, 'LICENSE')), 0o644],
    ['README.md', readFileSync(join(root, 'README.md')), 0o644],
    ['lib/start.cjs', Buffer.from(START), 0o644],
  ];
  if (existsSync(join(root, 'CHANGELOG.md'))) list.push(['CHANGELOG.md', readFileSync(join(root, 'CHANGELOG.md')), 0o644]);
  // (not the code cache a local run left in dist/bundle/.cache: each machine writes its own)
  for (const f of walk(bundle).filter((f) => !f.split(/[\\/]/).includes('.cache')))
    list.push([`lib/${f.split('\\').join('/')}`, readFileSync(join(bundle, f)), 0o644]);
  for (const f of walk(join(root, 'examples'))) list.push([`examples/${f}`, readFileSync(join(root, 'examples', f)), 0o644]);
  return list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const MTIME = Number(process.env.SOURCE_DATE_EPOCH ?? 315532800);

/** A ustar header block. */
function header(name, size, mode, type) {
  const h = Buffer.alloc(512);
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut < 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`path too long for ustar: ${name}`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  const put = (text, offset, length) => h.write(text, offset, length, 'utf8');
  const octal = (n, length) => n.toString(8).padStart(length - 1, '0') + '\0';
  put(name, 0, 100);
  put(octal(mode, 8), 100, 8);
  put(octal(0, 8), 108, 8); // uid
  put(octal(0, 8), 116, 8); // gid
  put(octal(size, 12), 124, 12);
  put(octal(MTIME, 12), 136, 12);
  put('        ', 148, 8); // checksum placeholder: spaces while summing
  put(type, 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  put('root', 265, 32);
  put('root', 297, 32);
  put(prefix, 345, 155);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

/** A gzipped ustar archive of the entries, with their parent directories. */
function tarGz(files) {
  const blocks = [];
  const dirs = new Set();
  for (const [path] of files) {
    const parts = path.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join('/') + '/');
  }
  const all = [...[...dirs].map((d) => [d, null, 0o755]), ...files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [path, data, mode] of all) {
    if (data === null) {
      blocks.push(header(path, 0, mode, '5'));
      continue;
    }
    blocks.push(header(path, data.length, mode, '0'), data);
    const pad = (512 - (data.length % 512)) % 512;
    if (pad) blocks.push(Buffer.alloc(pad));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

/** A single executable's archive: the executable, the completion helper (not on windows), the notices, examples, docs. */
function seaEntries(exe, os) {
  const list = [
    [basename(exe), readFileSync(exe), 0o755],
    ['THIRD-PARTY-NOTICES.txt', readFileSync(join(bundle, 'THIRD-PARTY-NOTICES.txt')), 0o644],
    ['LICENSE', readFileSync(join(root, 'LICENSE')), 0o644],
    ['README.md', readFileSync(join(root, 'README.md')), 0o644],
  ];
  if (os !== 'windows') list.push(['kubectl_complete-rs_reconcile', Buffer.from(HELPER), 0o755]);
  if (existsSync(join(root, 'CHANGELOG.md'))) list.push(['CHANGELOG.md', readFileSync(join(root, 'CHANGELOG.md')), 0o644]);
  for (const f of walk(join(root, 'examples'))) list.push([`examples/${f}`, readFileSync(join(root, 'examples', f)), 0o644]);
  return list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

mkdirSync(outDir, { recursive: true });
const archives = [];
let files = [];
if (sea) {
  const work = join(outDir, '.sea-work');
  for (const [os, arch] of platforms) {
    const exe = await buildSea({ root, bundle, platform: `${os}/${arch}`, outDir: join(outDir, `sea-${os}-${arch}`), work });
    files = seaEntries(exe, os);
    const archive = tarGz(files);
    const name = `rs-reconcile-${version}-${os}-${arch}.tar.gz`;
    writeFileSync(join(outDir, name), archive);
    archives.push({ os, arch, name, sha256: sha256(archive), bytes: archive.length, bin: basename(exe) });
  }
  rmSync(work, { recursive: true, force: true });
} else {
  files = entries();
  const archive = tarGz(files);
  const digest = sha256(archive);
  for (const [os, arch] of platforms) {
    const name = `rs-reconcile-${version}-${os}-${arch}.tar.gz`;
    writeFileSync(join(outDir, name), archive);
    archives.push({ os, arch, name, sha256: digest, bytes: archive.length, bin: 'kubectl-rs_reconcile' });
  }
}

const plugin = {
  apiVersion: 'krew.googlecontainertools.github.com/v1alpha2',
  kind: 'Plugin',
  metadata: { name: 'rs-reconcile' },
  spec: {
    version: `v${version}`,
    homepage,
    shortDescription: 'Explain, diff and run the ReplicaSet controller',
    description: [
      'rs-reconcile carries the upstream Kubernetes ReplicaSet controller (which also runs',
      'ReplicationControllers) into kubectl, and explains what it would do and why:',
      'which pods a ReplicaSet keeps, adopts, releases, creates or deletes, in which order',
      'it deletes them on a scale-down (the full ranking, pod-deletion-cost included), and',
      'which ReplicaSets fight over the same pods.',
      '',
      '  kubectl rs-reconcile explain rs/web -n shop     # the story of one ReplicaSet',
      '  kubectl rs-reconcile diff -A -o json           # what would change (exit 1 on drift)',
      '  kubectl rs-reconcile reconcile -n shop         # apply one sync, after confirming',
      '  kubectl rs-reconcile run -n shop               # run the controller in the foreground',
      '',
      "It reads the live cluster read-only with kubectl's own flags, or a saved snapshot",
      '(kubectl get rs,rc,pods -A -o yaml), and follows the behaviour of the Kubernetes',
      'minor version it talks to.',
      '',
    ].join('\n'),
    caveats: [
      ...(sea
        ? [
            'rs-reconcile is a single executable: it needs no Node.js on the machine.',
            'On macOS, if the system refuses to run it, sign it ad hoc: codesign --sign - "$(command -v kubectl-rs_reconcile)"',
          ]
        : [
            `This plugin is written in JavaScript: it needs Node.js ${nodeMajor}.${nodeMinor} or newer on PATH`,
            '(or RS_RECONCILE_NODE=/path/to/node). Without it, it prints one line saying so.',
          ]),
      '',
      'Shell completion of "kubectl rs-reconcile <TAB>" (kubectl 1.26 and newer) needs the',
      'kubectl_complete-rs_reconcile helper on PATH, which krew does not link by itself:',
      '  ln -s "${KREW_ROOT:-$HOME/.krew}/store/rs-reconcile/v' + version + '/kubectl_complete-rs_reconcile" "${KREW_ROOT:-$HOME/.krew}/bin/"',
      '',
    ].join('\n'),
    platforms: archives.map((a) => ({
      selector: { matchLabels: { os: a.os, arch: a.arch } },
      uri: `${baseUrl}/${a.name}`,
      sha256: a.sha256,
      bin: a.bin,
      files: [{ from: '*', to: '.' }],
    })),
  },
};
mkdirSync(dirname(manifestPath), { recursive: true });
writeFileSync(
  manifestPath,
  `# krew plugin manifest, written by scripts/release.mjs (npm run release): do not edit the sha256 by hand.\n${dump(plugin, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true, quotingType: '"' })}`,
);

if (!argv.includes('--quiet')) {
  for (const a of archives) console.log(`${relative(process.cwd(), join(outDir, a.name))}  ${(a.bytes / 1024).toFixed(0)} KiB  sha256 ${a.sha256}`);
  console.log(`${relative(process.cwd(), manifestPath)}  (${files.length} files per archive)`);
}
