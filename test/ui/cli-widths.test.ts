// The dashboard at every terminal width, in a real terminal: the built CLI's `watch` inside tmux
// at 60, 80, 120 and 160 columns × 24 rows, against the embedded API server seeded with the
// bundled examples (and a Deployment mid-rollout). In the list, detail, queue and history views no line is wider than the
// terminal, every table row is one line that starts with its column structure (a row that
// wrapped would start with the rest of the previous one), and the sentences wrap at words.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { whyText } from '../../src/ui/DetailPane.js';
import { skipAllIf } from '../skips.js';
import { ensureBuilt, hasTmux, Tmux } from './cli-helpers.js';
import { frameOf, loadExamples, ROOT } from './fixtures.js';

const TMUX = hasTmux();
const noTmux = TMUX ? null : 'tmux is not installed (apt-get install -y tmux): the terminal tests need it';
const WIDTHS = [60, 80, 120, 160];
const ROWS = 24;
/** Every example the sandbox takes as it is (invalid-selector's ReplicaSet is refused by its validation). */
const EXAMPLES = ['scale-down-ranking', 'drifted-replicaset', 'orphans-and-released', 'overlapping-selectors', 'replication-controller', 'orphaned-pods'];

function seedOf(names: string[]): unknown[] {
  return names.flatMap((n) =>
    parseAllDocuments(readFileSync(`${ROOT}examples/${n}.yaml`, 'utf8'))
      .map((d) => d.toJSON() as unknown)
      .filter((o) => o !== null),
  );
}

const screenLines = (s: string) => s.replace(/\n+$/, '').split('\n');

/** No line wider than the terminal, no more lines than it has. */
function fits(s: string, width: number): void {
  const lines = screenLines(s);
  expect(lines.length).toBeLessThanOrEqual(ROWS);
  for (const l of lines) expect([...l].length, `"${l}"`).toBeLessThanOrEqual(width);
}

/** The lines after the first line matching `head`, up to (not including) the first blank line, section title or the key line (the last). */
function section(s: string, head: RegExp): string[] {
  const lines = screenLines(s);
  const at = lines.findIndex((l) => head.test(l));
  expect(at, `no line matches ${head} in:\n${s}`).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const l of lines.slice(at + 1, -1)) {
    if (l.trim() === '' || l.startsWith('──')) break;
    out.push(l);
  }
  return out;
}

/** Each whitespace-separated token of `lines` is a whole word of `words` (the last may be "…"). */
function wholeWords(lines: string[], words: Set<string>): void {
  for (const l of lines) for (const w of l.trim().split(/\s+/)) if (w !== '…' && w !== '') expect(words, `"${w}" in "${l}"`).toContain(w);
}

describe('watch at 60, 80, 120 and 160 columns (tmux)', () => {
  skipAllIf(noTmux);
  let sb: Sandbox;
  let dir: string;
  let kubeconfig: string;
  const terminals: Tmux[] = [];
  const sandboxes: Sandbox[] = [];

  beforeAll(async () => {
    if (noTmux) return;
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'watch-widths-'));
    kubeconfig = join(dir, 'kubeconfig');
    // a read-only view: no kube-controller-manager controllers, so nothing changes under it
    sb = await startSandbox({ seed: seedOf(EXAMPLES), controllers: false, gc: false });
    await sb.writeKubeconfig(kubeconfig);
  }, 180_000);
  afterAll(async () => {
    for (const t of terminals) t.kill();
    await sb?.close();
    for (const s of sandboxes) await s.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function terminal(width: number, config: string): Tmux {
    // HISTFILE: the shell a hung-up tmux ends writes no history into HOME while it is removed
    const t = new Tmux(width, ROWS, { KUBECONFIG: config, HOME: dir, HISTFILE: '/dev/null' });
    terminals.push(t);
    return t;
  }

  it.each(WIDTHS)(
    '%i columns: the list and the detail view (pods, deletion order, why)',
    async (width) => {
      const search = frameOf(await loadExamples('scale-down-ranking')).plan.controllers[0];
      const model = frameOf(await loadExamples('scale-down-ranking')).explain(search)!;
      const t = terminal(width, kubeconfig);
      t.run(`clear; cd ${ROOT} && node bin/run.js watch -A; echo EXIT=$?`);
      // the list: the column header, then one line per controller of the examples
      let s = await t.waitFor((x) => /^ {4}K {2}NAME +DES/m.test(x) && /search\/search-5f7c9/.test(x) && /── Log/.test(x), 'the list', 30_000);
      fits(s, width);
      const rows = section(s, /^ {4}K {2}NAME +DES/);
      expect(rows.length).toBe(8);
      for (const l of rows) expect(l).toMatch(/^[> ] [ *~!] (rs|rc) [a-z0-9-]+\/[a-z0-9-]+ +\d+( +\d+)+( [█░]+)?$/);
      expect(rows[0]).toMatch(/^> /);
      // the header and the key line are one line each
      expect(screenLines(s)[0]).toMatch(/mode read-only$/);
      expect(screenLines(s)[1]).toMatch(/^controllers 8 {2}drifted 8/);
      expect(screenLines(s).at(-1)).toMatch(/^j\/k move · .*\? help · q quit$/);

      // the detail view of search/search-5f7c9 (filtered to, then opened)
      t.keys(['/']);
      await t.waitFor(/^\/_/m, 'the filter bar', 30_000);
      t.keys(['search-5f7c9'], true);
      await t.waitFor(/controllers 8 \(1 shown\)/, 'the filter', 30_000);
      t.keys(['Enter']);
      await t.waitFor((x) => !/^\/search/m.test(x), 'the filter kept', 30_000);
      t.keys(['Enter']);
      s = await t.waitFor((x) => /── Deletion order \(6 of 9 go\)/.test(x) && /── Why: search-5f7c9-/.test(x), 'the detail view', 30_000);
      fits(s, width);
      expect(screenLines(s)[2]).toMatch(/^ReplicaSet search\/search-5f7c9/);
      const pods = section(s, /^ {2}NAME +DECISION +REASON/);
      expect(pods.length).toBeGreaterThan(0);
      for (const l of pods) expect(l).toMatch(/^[> ] search-5f7c9-[a-z0-9]+ +(keep|delete) +OwnedMatching( |$)/);
      // the sentences: the deletion order's entries and the why of the selected pod, in whole words
      const words = new Set(
        [
          ...search.delete.map((d, i) => `#${i + 1} ${d.name} ${d.reason}: ${d.message}`),
          ...model.pods.map((p) => whyText(search, { ...p, deleteIndex: search.delete.findIndex((d) => d.name === p.name) })),
        ]
          .join(' ')
          .split(/\s+/),
      );
      for (const i of search.delete.keys()) words.add(`#${i + 1}`);
      const deletion = section(s, /^── Deletion order/);
      expect(deletion[0]).toMatch(/^#1 search-5f7c9-unsched +Unscheduled: /);
      for (const l of deletion.slice(1)) expect(l).toMatch(/^( {3}\S|#\d |… \d+ more)/); // an entry goes on under its text
      wholeWords(
        deletion.filter((l) => !l.startsWith('… ')),
        words,
      );
      wholeWords(section(s, /^── Why: /), words);
      t.keys(['q']);
      await t.waitFor(/EXIT=0/, 'the exit', 30_000);
    },
    180_000,
  );

  it.each(WIDTHS)(
    '%i columns: a Deployment mid-rollout, its row, its ReplicaSets under it and its detail',
    async (width) => {
      const own = await startSandbox({
        seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, ...seedOf(['deployment-midrollout'])],
        controllers: false,
        gc: false,
      });
      sandboxes.push(own);
      const config = join(dir, `kubeconfig-deploy-${width}`);
      await own.writeKubeconfig(config);
      const t = terminal(width, config);
      t.run(`clear; cd ${ROOT} && node bin/run.js watch -n shop --now 2026-01-01T00:00:00Z; echo EXIT=$?`);
      let s = await t.waitFor((x) => /^> \* deploy\/web {2}/m.test(x) && /── Log/.test(x), 'the Deployment row', 60_000);
      fits(s, width);
      const rows = section(s, /^ {4}K {2}NAME +DES/);
      expect(rows[0]).toMatch(/^> \* deploy\/web {2}\S.*scale web-5f6b/);
      expect(rows[1]).toMatch(/^ {4}├ web-7d9c5b6f4 {2}2\/2( |$)/);
      expect(rows[2]).toMatch(/^ {4}└ web-5f6b4c8d9 {2}3\/3 → 2( |$)/);
      for (const l of rows.slice(3)) expect(l).toMatch(/^ {2}[ *~!] rs web-[a-z0-9]+ +\d+( +\d+)+( [█░]+)?$/);
      t.keys(['Enter']);
      // the line under the heading too: a capture may catch a frame tmux has only partly drawn
      s = await t.waitFor((x) => /^Deployment shop\/web/m.test(x) && /^── Next step.*\n {2}\S/m.test(x), 'the detail view', 30_000);
      fits(s, width);
      const table = section(s, /^ {2}NAME +.*DES +CUR/);
      expect(table.map((l) => l.trim().split(/\s+/)[0])).toEqual(['web-7d9c5b6f4', 'web-5f6b4c8d9']);
      expect(section(s, /^── Next step/)[0]).toMatch(/^ {2}scale web-5f6b4c8d9 3 → 2: maxUnavailable/);
      t.keys(['q']);
      await t.waitFor(/EXIT=0/, 'the exit', 30_000);
    },
    180_000,
  );

  it.each(WIDTHS)(
    '%i columns: --reconcile, the queue pane and the history pane',
    async (width) => {
      // a sandbox of its own: the controller acts on it
      const own = await startSandbox({ seed: seedOf(['drifted-replicaset']), nodes: 2, gc: false });
      sandboxes.push(own);
      const config = join(dir, `kubeconfig-${width}`);
      await own.writeKubeconfig(config);
      const t = terminal(width, config);
      t.run(`clear; cd ${ROOT} && node bin/run.js watch -A --reconcile; echo EXIT=$?`);
      let s = await t.waitFor(
        (x) => /── Controller/.test(x) && / depth \d+/.test(x) && /rs shop\/shop-web: (create|adopt|release|update status)/.test(x),
        'the queue pane with actions',
        60_000,
      );
      fits(s, width);
      const queue = screenLines(s).slice(screenLines(s).findIndex((l) => l.startsWith('── Controller')) + 1);
      // the queues (maybe on two lines, the second indented), then the expectations
      expect(queue[0]).toMatch(/^(rs|replicaset) depth \d+ in flight \d+ retries \d+/);
      expect(queue.some((l) => /^expectations/.test(l))).toBe(true);
      t.keys(['h']);
      s = await t.waitFor(
        // the pane's layout is what is checked here (who wrote what: test/history, test/e2e/record.test.ts)
        // a row of a write, not the pane's "no write seen" before the first one is explained
        (x) => /── History rs shop\/shop-web/.test(x) && section(x, /^── History/).some((l) => !l.startsWith('no write seen')),
        "the history pane with the controller's writes",
        60_000,
      );
      fits(s, width);
      for (const l of section(s, /^── History/))
        expect(l).toMatch(/^(\d\d:\d\d:\d\d )?(<unknown user>|\S+) +(create|delete|patch|update|scale|status)\S* +\S+ +\S+ +(yes|NO|-)$/);
      t.keys(['q']);
      await t.waitFor(/EXIT=0/, 'the exit', 30_000);
    },
    180_000,
  );
});
