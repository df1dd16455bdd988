// The watch dashboard's render times with 10k pods: test/ui/render-bench.tsx bundled with esbuild
// from the sources (so it measures the current code) and run in a child process with
// NODE_ENV=production (React's production build, as the CLI runs it). Used by `npm run bench`
// (which prints the times) and by test/ui/render-budget.test.tsx (which checks the screens).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Runs the measurement; resolves to { status, stderr, metrics } (metrics: its JSON, parsed). */
export async function measureWatchRender() {
  const dir = mkdtempSync(join(tmpdir(), 'watch-bench-'));
  try {
    const outfile = join(dir, 'bench.mjs');
    const noDevtools = {
      name: 'no-react-devtools', // ink imports it only when DEV=true
      setup(b) {
        b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
        b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };' }));
      },
    };
    await build({
      entryPoints: [fileURLToPath(new URL('../test/ui/render-bench.tsx', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      jsx: 'automatic',
      outfile,
      plugins: [noDevtools],
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      logLevel: 'error',
    });
    const run = spawnSync(process.execPath, [outfile], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { status: run.status, stderr: run.stderr, metrics: run.status === 0 ? JSON.parse(run.stdout) : null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The times as report lines. */
export function watchRenderLines(m) {
  const f = (n) => `${n.toFixed(1)} ms`;
  const mm = (x) => `${f(x.median)} (max ${f(x.max)})`;
  return [
    `| 200 ReplicaSets × 50 pods: plan (core) | ${mm(m.plan)} |`,
    `| new plan → frame on screen (list) | ${mm(m.list)} |`,
    `| key: move in the list | ${mm(m.move)} |`,
    `| open a controller (explain, 50 pods) | ${f(m.open)} |`,
    `| key: move in the detail | ${mm(m.detailMove)} |`,
    `| 1 ReplicaSet owning 10k pods: plan (core) | ${f(m.planOne)} |`,
    `| open its detail (explain 10k pods) | ${f(m.bigOpen)} |`,
    `| key: move in the detail | ${mm(m.bigMove)} |`,
    `| a new plan's frame → detail on screen (explain again) | ${mm(m.bigReplanRender)} |`,
  ];
}
