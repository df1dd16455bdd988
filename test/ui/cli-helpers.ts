// The built CLI for the end-to-end tests: build when dist is missing or older than the sources,
// run it piped, or inside a private tmux server to read what a terminal shows.

import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './fixtures.js';

export const RUN = `${ROOT}bin/run.js`;

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function mtime(p: string): number | null {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return null;
  }
}

/** `npm run build` unless the build is newer than every source file (npm test builds first). */
export function ensureBuilt(): void {
  const built = mtime(`${ROOT}dist/bundle/commands/watch.js`);
  const compiled = mtime(`${ROOT}dist/commands/watch.js`);
  const sources = newest(`${ROOT}src`);
  if (built !== null && compiled !== null && built >= sources && compiled >= sources) return;
  const env = { ...process.env };
  delete env.NODE_ENV; // oclif's manifest generation misbehaves under NODE_ENV=test
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}

/** The environment of a user's shell: no vitest variables, no cluster unless given. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: 'C.UTF-8', KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/nonexistent-home', ...extra };
  return env;
}

export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
}

/** A tmux server of our own (its own socket), one session running bash. */
export class Tmux {
  private readonly socket = `rsw-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly env: NodeJS.ProcessEnv;
  constructor(
    readonly columns = 100,
    readonly rows = 30,
    env: Record<string, string> = {},
  ) {
    // the server (and the shell in it) gets a user's environment, not vitest's (NODE_ENV=test…)
    this.env = userEnv({ TERM: 'xterm-256color', ...env });
    this.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'w', '-x', String(columns), '-y', String(rows), 'bash --norc --noprofile');
    this.tmux('set-option', '-g', 'status', 'off');
    this.tmux('set-option', '-s', 'escape-time', '0');
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', timeout: 10_000, env: this.env });
  }

  /** Types a shell command line and Enter. */
  run(line: string): void {
    this.tmux('send-keys', '-t', 'w', '-l', line);
    this.tmux('send-keys', '-t', 'w', 'Enter');
  }

  /** Sends keys as tmux names them (j, Enter, Escape, C-c) or literal text with literal=true. */
  keys(keys: string[], literal = false): void {
    this.tmux('send-keys', '-t', 'w', ...(literal ? ['-l'] : []), ...keys);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'w');
  }

  alternateScreen(): boolean {
    return this.tmux('display-message', '-p', '-t', 'w', '#{alternate_on}').trim() === '1';
  }

  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-t', 'w', '-x', String(columns), '-y', String(rows));
  }

  /** Waits until the screen matches; returns it. */
  async waitFor(test: RegExp | ((screen: string) => boolean), what: string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = this.screen();
      if (typeof test === 'function' ? test(s) : test.test(s)) return s;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
