// The krew single executable (issue 20, item 9): `release.mjs` builds a Node.js single executable
// per platform from the official Node.js binaries on npm. This builds the linux-x64 one once (its
// Node.js fetched with `npm pack` into the user's cache, as a release fetches it: not a
// devDependency, whose `node` bin would shadow the Node.js that runs npm's scripts) and runs it
// from its archive with no node on PATH: the same bytes as the bundle, and kubectl's completion
// helper works with it. Offline and not in CI, it is skipped with the reason.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script, without types
import { SEA_TARGETS, nodeBinary } from '../../scripts/sea.mjs';
import { EXAMPLE, NOW, ROOT, RUN_JS, baseEnv, ensureBundle, node, tempDir } from './helpers.js';
import { skipAllIf } from '../skips.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const target = SEA_TARGETS['linux/amd64'];

/** Why the executable cannot be built here, or null when it can (its Node.js at hand or fetched). */
function unusable(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'this is not linux-x64';
  try {
    nodeBinary(ROOT, target.pkg, target.version, target.bin);
    return null;
  } catch (e) {
    // in CI the registry is there: a failed fetch is a failure, not a skip
    if (process.env.CI) throw e;
    return (e as Error).message;
  }
}
const why = unusable();

describe('the linux-x64 single executable', () => {
  skipAllIf(why);
  let out: string;
  let dir: string;
  let exe: string;
  const empty = () => {
    const d = join(out, 'empty-bin');
    mkdirSync(d, { recursive: true });
    return d;
  };
  // no node anywhere on PATH; HOME for the code cache's fallback folder
  const env = (extra: Record<string, string> = {}) => baseEnv({ PATH: empty(), HOME: join(out, 'home'), ...extra });

  beforeAll(() => {
    if (why !== null) return;
    ensureBundle();
    out = tempDir('rs-sea-');
    const r = node(join(ROOT, 'scripts', 'release.mjs'), ['--out', out, '--manifest', join(out, 'm.yaml'), '--quiet', '--platforms', 'linux/amd64'], {});
    if (r.status !== 0) throw new Error(`release failed: ${r.stderr}`);
    dir = join(out, 'unpacked');
    mkdirSync(dir);
    const x = spawnSync('tar', ['-xzf', join(out, `rs-reconcile-${pkg.version}-linux-amd64.tar.gz`), '-C', dir]);
    if (x.status !== 0) throw new Error(String(x.stderr));
    exe = join(dir, 'kubectl-rs_reconcile');
  }, 600_000);

  it('is an archive with the executable, the completion helper, the notices and examples, and no JavaScript beside them', () => {
    const list = spawnSync('tar', ['-tzf', join(out, `rs-reconcile-${pkg.version}-linux-amd64.tar.gz`)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean);
    expect(list).toEqual(
      expect.arrayContaining([
        'kubectl-rs_reconcile',
        'kubectl_complete-rs_reconcile',
        'THIRD-PARTY-NOTICES.txt',
        'LICENSE',
        'README.md',
        'examples/drifted-replicaset.yaml',
      ]),
    );
    expect(list.filter((f) => /\.(c?js|mjs)$/.test(f))).toEqual([]);
    const plugin = parse(readFileSync(join(out, 'm.yaml'), 'utf8'));
    const [p] = plugin.spec.platforms;
    expect(p.selector.matchLabels).toEqual({ os: 'linux', arch: 'amd64' });
    expect(p.bin).toBe('kubectl-rs_reconcile');
    expect(p.sha256).toBe(
      createHash('sha256')
        .update(readFileSync(join(out, `rs-reconcile-${pkg.version}-linux-amd64.tar.gz`)))
        .digest('hex'),
    );
    expect(plugin.spec.caveats).toMatch(/needs no Node\.js/);
  });

  it('runs version --client, --help and diff with no node on PATH, printing what the bundle prints', () => {
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: env() }).status).not.toBe(0);
    // the executable embeds its own Node.js (SEA_TARGETS), not the one running this test
    const runtime = (text: string) => text.replace(/^Node\.js v\d+\.\d+\.\d+$/m, 'Node.js (runtime)').replace(/ node-v\d+\.\d+\.\d+$/m, ' node-(runtime)');
    for (const args of [['version', '--client'], ['--help'], ['diff', '-f', EXAMPLE, '--now', NOW], ['diff', '--help'], ['--version']]) {
      const sea = spawnSync(exe, args, { cwd: dir, encoding: 'utf8', env: env() });
      const bundle = node(RUN_JS, args, { RS_RECONCILE_INVOKED_AS: 'kubectl-rs_reconcile' });
      expect({ status: sea.status, stdout: runtime(sea.stdout), stderr: sea.stderr }, args.join(' ')).toEqual({ ...bundle, stdout: runtime(bundle.stdout) });
    }
    // run twice: the second run reads the code cache the first wrote beside the executable
    const again = spawnSync(exe, ['diff', '-f', EXAMPLE, '--now', NOW], { cwd: dir, encoding: 'utf8', env: env() });
    expect(again.stdout).toBe(node(RUN_JS, ['diff', '-f', EXAMPLE, '--now', NOW]).stdout);
    expect(existsSync(join(dir, '.cache'))).toBe(true);
  });

  it('reports the Node.js it embeds, 24 or newer, in version', () => {
    const sea = spawnSync(exe, ['version', '--client', '-o', 'json'], { cwd: dir, encoding: 'utf8', env: env() });
    expect(sea.status).toBe(0);
    const reported: string = JSON.parse(sea.stdout).node;
    expect(reported).toBe(`v${target.version}`);
    expect(Number(/^v(\d+)\./.exec(reported)?.[1])).toBeGreaterThanOrEqual(24);
  });

  it('completes through the kubectl_complete-rs_reconcile helper beside it', () => {
    const r = spawnSync(join(dir, 'kubectl_complete-rs_reconcile'), ['diff', '-o', ''], {
      cwd: dir,
      encoding: 'utf8',
      env: env({ PATH: `${empty()}:/usr/bin:/bin` }),
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(node(join(ROOT, 'bin', 'complete.js'), ['diff', '-o', '']).stdout);
    expect(r.stdout).toContain('json');
  });
});
