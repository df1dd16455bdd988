// The installed kubectl (v1.32) against one sandbox, with its own kubeconfig and cache directory.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../../src/sandbox/index.js';

export interface KubectlRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Kubectl {
  run(...args: string[]): Promise<KubectlRun>;
  /** Writes a manifest into the runner's directory; returns its path. */
  file(name: string, text: string): Promise<string>;
  close(): Promise<void>;
}

export async function kubectlFor(sb: Sandbox): Promise<Kubectl> {
  const dir = await mkdtemp(join(tmpdir(), 'sbx-kubectl-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await sb.writeKubeconfig(kubeconfig);
  return {
    run: (...args) =>
      new Promise((resolve) => {
        execFile(
          'kubectl',
          ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
          { env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 20_000 },
          (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      }),
    file: async (name, text) => {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The header cells of a kubectl table. */
export const headerOf = (stdout: string): string[] =>
  stdout
    .split('\n')[0]
    .trim()
    .split(/\s{2,}/);
/** The cells of the row whose first cell is `name`. */
export const rowOf = (stdout: string, name: string): string[] | undefined =>
  stdout
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/))
    .find((cells) => cells[0] === name);
