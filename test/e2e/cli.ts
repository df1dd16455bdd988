// Runs the built CLI (bin/run.js) as a user would, in a child process.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RUN_JS = `${ROOT}bin/run.js`;
export const EXAMPLES = `${ROOT}examples`;
export const NOW = '2026-01-01T00:00:00Z';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function ensureBuilt(): void {
  if (!existsSync(`${ROOT}dist/commands/diff.js`) || !existsSync(`${ROOT}oclif.manifest.json`)) {
    const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('build failed');
  }
}

export function cli(args: string[], opts: { input?: string; env?: Record<string, string | undefined>; timeout?: number } = {}): CliResult {
  const r = spawnSync(process.execPath, [RUN_JS, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    input: opts.input ?? '',
    timeout: opts.timeout ?? 60_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/nonexistent-home', ...opts.env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function example(name: string): string {
  return `${EXAMPLES}/${name}.yaml`;
}
