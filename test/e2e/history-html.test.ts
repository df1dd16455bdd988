// `history -o html` in a real browser: Debian's Chromium, headless, driven by playwright-core
// (scripts/history-timeline.mjs launches it). The page made by the built CLI from the shared demo
// log, and from a rollout on the sandbox (Deployment web's two ReplicaSets scaled in turn by the
// deployment controller, `run` as the ReplicaSet controller): one bar per pod and one mark per
// write, coloured by who wrote it and carrying the document's verdicts; a click on a delete
// opens its ranking sentence; the screenshot has the bars where the times say.
//
// The same page draws a rollout foreseen (explain deploy/NAME --image … -o html) as history would.
//
// Without /usr/bin/chromium the tests skip saying so, except in CI (CI set), where .ci/run
// installs it: there a missing browser fails.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconcileHistory } from '../../src/history/types.js';
import { cli, ensureBuilt, example, NOW, ROOT } from './cli.js';
import { rollOutOnSandbox } from './rollout.js';
import { historyHtmlChunks } from '../../src/render/history-html/document.js';
import { historyPageScript } from '../../src/services/history-page.js';
// @ts-expect-error plain ESM script without types
import { CHROMIUM, launchChromium, openTimeline, writeTimelineHtml } from '../../scripts/history-timeline.mjs';
import { skipAllIf, withoutShared } from '../skips.js';

const DEMO = join(ROOT, '..', 'shared', 'history', 'demo', 'audit.jsonl');
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SKIP_WHY = `${CHROMIUM} is missing (apt-get install -y chromium): the browser tests are skipped outside CI`;

/** Outside CI a missing browser skips, visibly; in CI it fails (.ci/run installs it). */
function needChromium(ctx: { skip: (cond: boolean, note: string) => void }): void {
  if (HAVE_CHROMIUM) return;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing in CI: .ci/run installs it (apt-get install -y chromium)`);
  ctx.skip(true, SKIP_WHY);
}
if (!HAVE_CHROMIUM && !process.env.CI) console.warn(`history-html.test.ts: ${SKIP_WHY}`);

const rgb = (hex: string): string => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;
// the legend's colours (src/render/history-html/model.ts), as the browser computes them
const COLOUR = { controller: rgb('#0072b2'), deployment: rgb('#e69f00'), person: rgb('#cc79a7'), node: rgb('#009e73') };

interface DrawnMark {
  event: number;
  verb: string;
  verdict: string | null;
  fill: string;
  x: number;
  y: number;
}

async function drawnMarks(page: Page): Promise<DrawnMark[]> {
  return page.$$eval('.mark.write', (els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return {
        event: Number(el.getAttribute('data-event')),
        verb: el.getAttribute('data-verb')!,
        verdict: el.getAttribute('data-verdict'),
        fill: getComputedStyle(el).fill,
        x: r.x + r.width / 2,
        y: r.y + r.height / 2,
      };
    }),
  );
}

async function drawnBars(page: Page) {
  return page.$$eval('.bar', (els) =>
    els.map((el) => ({
      pod: el.getAttribute('data-pod')!,
      start: Number(el.getAttribute('data-start')),
      end: Number(el.getAttribute('data-end')),
      box: el.getBoundingClientRect().toJSON() as DOMRect,
    })),
  );
}

async function plotScale(page: Page) {
  return page.$eval('#plot', (el) => ({
    from: Number(el.getAttribute('data-from')),
    to: Number(el.getAttribute('data-to')),
    x0: Number(el.getAttribute('data-x0')),
    x1: Number(el.getAttribute('data-x1')),
    left: el.getBoundingClientRect().left,
  }));
}

/** The one check of the two pages: bars, marks, colours and verdicts against the document. */
async function checkAgainstDocument(page: Page, doc: ReconcileHistory, colourOf: (e: ReconcileHistory['events'][number]) => string): Promise<void> {
  const pods = new Set(doc.events.flatMap((e) => (e.pod === null ? [] : [e.pod])));
  const bars = await drawnBars(page);
  expect(bars.map((b) => b.pod).sort()).toEqual([...pods].sort());
  const marks = await drawnMarks(page);
  expect(marks.map((m) => m.event).sort((a, b) => a - b)).toEqual(doc.events.map((_, i) => i));
  for (const m of marks) {
    const e = doc.events[m.event];
    expect(m.verb, `write ${m.event}`).toBe(e.verb);
    expect(m.fill, `colour of write ${m.event} by ${e.actor.user}`).toBe(colourOf(e));
    const verdict = !e.actor.controller ? null : e.predicted === true ? 'predicted' : e.predicted === false ? 'not-predicted' : 'unknown';
    expect(m.verdict, `verdict of write ${m.event}`).toBe(verdict);
  }
  // the bars are where the times say: x proportional to time within 1.5 px
  const s = await plotScale(page);
  const x = (t: number) => s.left + s.x0 + ((t - s.from) / (s.to - s.from)) * (s.x1 - s.x0);
  for (const b of bars) {
    expect(Math.abs(b.box.x - x(b.start)), `start of ${b.pod}`).toBeLessThan(1.5);
    expect(Math.abs(b.box.x + b.box.width - x(b.end)), `end of ${b.pod}`).toBeLessThan(1.5);
  }
}

/** The screenshot's pixel at (x, y), read back by the browser from the PNG. */
async function pixelsOf(context: BrowserContext, png: Buffer, points: { x: number; y: number }[]): Promise<number[][]> {
  const p = await context.newPage();
  const out = await p.evaluate(
    async ({ data, points }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      return points.map((pt) => [...g.getImageData(Math.round(pt.x), Math.round(pt.y), 1, 1).data].slice(0, 3));
    },
    { data: png.toString('base64'), points },
  );
  await p.close();
  return out;
}

const near = (px: number[], css: string, tolerance = 40): boolean => {
  const want = /rgb\((\d+), (\d+), (\d+)\)/.exec(css)!.slice(1).map(Number);
  return px.every((v, i) => Math.abs(v - want[i]) <= tolerance);
};

let dir: string;
let browser: { context: BrowserContext; close(): Promise<void> } | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-history-html-'));
  if (!HAVE_CHROMIUM) return;
  ensureBuilt();
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the page of the shared demo log', () => {
  const html = () => join(dir, 'demo.html');
  let doc: ReconcileHistory;
  const why = withoutShared(DEMO);
  skipAllIf(why);
  beforeAll(() => {
    if (!HAVE_CHROMIUM || why !== null) return;
    writeTimelineHtml(DEMO, html());
    const r = cli(['history', '--audit-log', DEMO, '-A', '-o', 'json']);
    expect(r.status, r.stderr).toBe(0);
    doc = JSON.parse(r.stdout);
  }, 120_000);

  it('embeds the document once, and draws one bar per pod and one mark per write, coloured by writer with their verdicts', async (ctx) => {
    needChromium(ctx);
    const text = readFileSync(html(), 'utf8');
    // -o html on stdout is the same page as --output-file writes
    expect(cli(['history', '--audit-log', DEMO, '-A', '-o', 'html']).stdout).toBe(text);
    // the plain tsc build (dist/, not the bundle) writes the same page: its script is beside it too
    expect(cli(['history', '--audit-log', DEMO, '-A', '-o', 'html'], { env: { RS_RECONCILE_NO_BUNDLE: '1' } }).stdout).toBe(text);
    expect(text.match(/<script type="application\/json" id="history-document">/g)).toHaveLength(1);
    expect(text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)/);
    const { page, errors } = await openTimeline(browser!.context, html());
    await checkAgainstDocument(page, doc, (e) => (e.actor.controller ? COLOUR.controller : COLOUR.person));
    // the demo: 5 pods of rc/api, 16 writes of the controller, all predicted, and admin's 3
    expect(await page.locator('.bar').count()).toBe(5);
    expect(await page.locator('.mark.write[data-verdict="predicted"]').count()).toBe(16);
    expect(await page.locator('.mark.write:not([data-verdict])').count()).toBe(3);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('a click on the delete of api-cln6k tells its ranking sentence and cause, and the cause links to its mark', async (ctx) => {
    needChromium(ctx);
    const { page } = await openTimeline(browser!.context, html());
    const del = doc.events.findIndex((e) => e.verb === 'delete' && e.pod === 'api-cln6k');
    await page.locator(`.mark.write[data-event="${del}"]`).click();
    const current = page.locator('#detail .write.current');
    await expect
      .poll(() => current.textContent(), { timeout: 30_000 })
      .toContain('api-cln6k has 7 restarts, api-lgl28 (the first pod that stays) has 0 restarts: the pod that restarted more goes first');
    expect(await current.textContent()).toContain('because admin scaled ReplicationController api 4 → 1 at 02:52:55Z');
    expect(await page.locator('#detail').textContent()).toContain('coverage: kube-apiserver');
    // the cause step is admin's scale, a write of the document: its link selects that mark
    await current.locator('a.cause-step').first().click();
    const scale = doc.events.findIndex((e) => e.verb === 'scale' && e.actor.user === 'admin');
    await expect.poll(() => page.locator('.mark.selected').getAttribute('data-event'), { timeout: 30_000 }).toBe(String(scale));
    // → goes to the controller's next write: after admin's scale (a write on rc/api), the first delete
    await page.locator('#chart').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('.mark.selected').getAttribute('data-event'), { timeout: 30_000 }).toBe(String(scale + 1));
    // a cause step that is no write of the document: the kubelet's (here admin's) Ready change of api-cln6k
    await page
      .locator('.mark.cause-step')
      .filter({ has: page.locator('title', { hasText: 'api-cln6k' }) })
      .click();
    await expect.poll(() => page.locator('#detail').textContent(), { timeout: 30_000 }).toContain('api-cln6k became ready');
    expect(await page.locator('#detail').textContent()).toContain('In the cause chain of:');
    // a pod's bar opens its story at its first write, its create
    const bar = page.locator('.bar[data-pod="api-x887b"]');
    const box = (await bar.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const create = doc.events.findIndex((e) => e.verb === 'create' && e.pod === 'api-x887b');
    await expect.poll(() => page.locator('.mark.selected').getAttribute('data-event'), { timeout: 30_000 }).toBe(String(create));
    await page.close();
  }, 120_000);

  it('filters by pod, controller and namespace, and zooms around the middle with the marks where their times say', async (ctx) => {
    needChromium(ctx);
    const { page } = await openTimeline(browser!.context, html());
    await page.fill('#f-pod', 'cln6k');
    await expect
      .poll(() => page.$$eval('.row-label', (els: Element[]) => els.map((el) => el.textContent)), { timeout: 30_000 })
      .toEqual(['rc/api  (demo)', 'api-cln6k']);
    await page.fill('#f-pod', '');
    await page.fill('#f-controller', 'nothing-like-it');
    await expect.poll(() => page.locator('.row-label').count(), { timeout: 30_000 }).toBe(0);
    await page.fill('#f-controller', '');
    await page.selectOption('#f-namespace', 'demo');
    await expect.poll(() => page.locator('.bar').count(), { timeout: 30_000 }).toBe(5);
    const before = await plotScale(page);
    await page.click('#zoom-in');
    const after = await plotScale(page);
    expect(after.to - after.from).toBeCloseTo((before.to - before.from) / 2, 0);
    // every write drawn now is in the window, at its time
    const x = (t: number) => after.left + after.x0 + ((t - after.from) / (after.to - after.from)) * (after.x1 - after.x0);
    const drawn = await page.$$eval('.mark.write', (els: Element[]) =>
      els.map((el) => ({ t: Number(el.getAttribute('data-time')), x: el.getBoundingClientRect().x + el.getBoundingClientRect().width / 2 })),
    );
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(doc.events.length);
    for (const d of drawn) {
      expect(d.t).toBeGreaterThanOrEqual(after.from);
      expect(d.t).toBeLessThanOrEqual(after.to);
      expect(Math.abs(d.x - x(d.t))).toBeLessThan(1.5);
    }
    await page.close();
  }, 120_000);

  it('a page that holds only part of the history says so, and ends its time at the last write it holds', async (ctx) => {
    needChromium(ctx);
    const file = join(dir, 'demo-sampled.html');
    writeFileSync(file, [...historyHtmlChunks(doc, { script: await historyPageScript(), maxEvents: 10 })].join(''));
    const { page, errors } = await openTimeline(browser!.context, file);
    const note = await page.locator('#sample-note').textContent();
    expect(note).toContain(
      "Sampled: this page holds the first 10 of the history's 19 writes, up to 2026-11-25 02:52:55.440Z (the history goes on to 2026-11-25 02:52:58.513Z).",
    );
    expect(await page.locator('.mark.write').count()).toBe(10);
    const s = await plotScale(page);
    expect(s.to).toBeLessThan(Date.parse(doc.to!));
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('its screenshot shows the bars and marks where the times put them', async (ctx) => {
    needChromium(ctx);
    const { page } = await openTimeline(browser!.context, html());
    const png = await page.screenshot();
    const bars = await drawnBars(page);
    const marks = await drawnMarks(page);
    const readyMid = await page.$$eval('.seg[data-state="ready"]', (els: Element[]) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }),
    );
    expect(readyMid.length).toBe(2); // api-cln6k and api-lgl28 became ready; the others' state is not in the log
    const controllerMarks = marks.filter((m) => doc.events[m.event].actor.controller);
    const points = [...readyMid, ...controllerMarks.map((m) => ({ x: m.x, y: m.y })), { x: bars[0].box.x - 20, y: bars[0].box.y + bars[0].box.height / 2 }];
    const px = await pixelsOf(browser!.context, png, points);
    for (let i = 0; i < readyMid.length; i++) expect(near(px[i], rgb('#8fd19e')), `ready stretch ${i}: ${px[i]}`).toBe(true);
    for (let i = 0; i < controllerMarks.length; i++) {
      // a mark may sit under its neighbour, drawn over it a few ms later: one of the writers' colours
      const p = px[readyMid.length + i];
      expect(near(p, COLOUR.controller) || near(p, COLOUR.person), `mark of write ${controllerMarks[i].event}: ${p}`).toBe(true);
    }
    // left of the first bar, before anything happened: the row's background, not a bar
    expect(near(px[px.length - 1], rgb('#8fd19e')) || near(px[px.length - 1], COLOUR.controller)).toBe(false);
    await page.close();
  }, 120_000);
});

describe('the page of a rollout on the sandbox', () => {
  let doc: ReconcileHistory;
  const html = () => join(dir, 'rollout.html');
  beforeAll(async () => {
    if (!HAVE_CHROMIUM) return;
    const audit = await rollOutOnSandbox(dir);
    writeTimelineHtml(audit, html(), ['deploy/web', '-n', 'shop']);
    const r = cli(['history', 'deploy/web', '-n', 'shop', '--audit-log', audit, '-o', 'json']);
    expect(r.status, r.stderr).toBe(0);
    doc = JSON.parse(r.stdout);
  }, 240_000);

  it('groups the two ReplicaSets under deploy/web, one bar per pod, the deployment controller in its colour', async (ctx) => {
    needChromium(ctx);
    const { page, errors } = await openTimeline(browser!.context, html());
    const dc = 'system:serviceaccount:kube-system:deployment-controller';
    // the kubelet's final deletes of the pods it stopped are in the document too
    const colourOf = (e: ReconcileHistory['events'][number]) =>
      e.actor.controller ? COLOUR.controller : e.actor.user === dc ? COLOUR.deployment : e.actor.user.startsWith('system:node:') ? COLOUR.node : COLOUR.person;
    await checkAgainstDocument(page, doc, colourOf);
    const labels = await page.$$eval('.row-label', (els: Element[]) => els.map((el) => `${el.getAttribute('class')}: ${el.textContent}`));
    expect(labels.slice(0, 3)).toEqual([
      'row-label deployment: deploy/web  (shop)',
      'row-label controller: rs/web-old',
      expect.stringMatching(/^row-label pod: web-old-/),
    ]);
    expect(labels).toContain('row-label controller: rs/web-new');
    expect(await page.locator('.mark.write[data-writer="deployment-controller"]').count()).toBeGreaterThan(2);
    expect(await page.locator('.mark.write[data-writer="node"]').count()).toBeGreaterThan(0);
    expect(await page.locator('.mark.write[data-verdict="predicted"]').count()).toBe(
      doc.events.filter((e) => e.actor.controller && e.predicted === true).length,
    );
    // ↓ from a write of web-old goes to the nearest write of web-new, → along web-new's writes
    const laneOf = (i: number) => doc.events[i].controller?.name;
    const firstOld = doc.events.findIndex((e) => e.controller?.name === 'web-old');
    await page.locator(`.mark.write[data-event="${firstOld}"]`).click();
    await page.keyboard.press('ArrowDown');
    const down = Number(await page.locator('.mark.selected').getAttribute('data-event'));
    expect(laneOf(down)).toBe('web-new');
    await page.keyboard.press('ArrowRight');
    const next = Number(await page.locator('.mark.selected').getAttribute('data-event'));
    expect(laneOf(next)).toBe('web-new');
    expect(next).toBe(doc.events.findIndex((e, i) => i > down && e.controller?.name === 'web-new'));
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('the page of a rollout foreseen (explain deploy/web --image … -o html)', () => {
  let doc: ReconcileHistory;
  const html = () => join(dir, 'foreseen.html');
  const image = 'app=registry.example/web:1.5.0';
  beforeAll(() => {
    if (!HAVE_CHROMIUM) return;
    const args = ['explain', 'deploy/web', '-n', 'storefront', '-f', example('deployment-at-rest'), '--now', NOW, '--image', image, '--pod-gone-after', '2s'];
    const r = cli([...args, '-o', 'html', '--output-file', html()]);
    expect(r.status, r.stderr).toBe(0);
    const block = /<script type="application\/json" id="history-document">(.*?)<\/script>/s.exec(readFileSync(html(), 'utf8'))![1];
    doc = JSON.parse(block);
  }, 120_000);

  it('draws every foreseen write and pod as history would, says it is a prediction and what it assumes, with no error', async (ctx) => {
    needChromium(ctx);
    const { page, errors } = await openTimeline(browser!.context, html());
    const dc = 'system:serviceaccount:kube-system:deployment-controller';
    const colourOf = (e: ReconcileHistory['events'][number]) =>
      e.actor.controller ? COLOUR.controller : e.actor.user === dc ? COLOUR.deployment : e.actor.user.startsWith('system:node:') ? COLOUR.node : COLOUR.person;
    await checkAgainstDocument(page, doc, colourOf);
    const header = await page.locator('header').textContent();
    expect(header).toContain(`A prediction, not a record: the rollout of Deployment storefront/web after set image ${image}`);
    expect(header).toContain('Assumes: new pods turn ready 5s after they are created; deleted pods are gone 2s after the delete');
    expect(header).toMatch(/Result: complete after \d+s/);
    expect(header).toContain('state the prediction does not tell');
    expect(header).not.toContain('state not in the log');
    expect(await page.title()).toContain('a prediction, not a record');
    const labels = await page.$$eval('.row-label', (els: Element[]) => els.map((el) => `${el.getAttribute('class')}: ${el.textContent}`));
    expect(labels[0]).toBe('row-label deployment: deploy/web  (storefront)');
    expect(labels).toContain('row-label controller: rs/web-5f6b4c8d9');
    // the unready pod's delete: its ranking sentence, foreseen, and why the controller acts
    const del = doc.events.findIndex((e) => e.verb === 'delete' && e.pod === 'web-5f6b4c8d9-x2k8q' && e.actor.controller);
    await page.locator(`.mark.write[data-event="${del}"]`).click();
    const current = page.locator('#detail .write.current');
    await expect.poll(() => current.textContent(), { timeout: 30_000 }).toContain('web-5f6b4c8d9-x2k8q is not ready');
    expect(await current.textContent()).toContain('[foreseen]');
    expect(await current.textContent()).toContain(`rolling out Deployment web after you changed its image ${image}`);
    expect(await page.locator('#detail').textContent()).toContain('What the prediction assumes');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('a lane with more writes than pixels', () => {
  it('draws one mark a pixel column saying how many writes it stands for, and a click on it zooms in', async (ctx) => {
    needChromium(ctx);
    const rs = { kind: 'ReplicaSet' as const, namespace: 'busy', name: 'web' };
    const user = 'system:serviceaccount:kube-system:replicaset-controller';
    const t0 = Date.parse('2026-11-25T10:00:00Z');
    const events = Array.from({ length: 3000 }, (_, i) => ({
      time: new Date(t0 + i * 200).toISOString(),
      actor: { user, controller: true },
      verb: 'status' as const,
      controller: rs,
      pod: null,
      reason: null,
      message: `wrote status: replicas ${i % 5}`,
      predicted: true,
      cause: null,
    }));
    const doc: ReconcileHistory = {
      apiVersion: 'rs-reconcile/v1alpha1',
      kind: 'ReconcileHistory',
      source: 'audit-log',
      kubernetesVersion: '1.32',
      from: events[0].time,
      to: events.at(-1)!.time,
      events,
      coverage: { format: 'kube-apiserver', truncated: 0, duplicates: 0, missing: [] },
    };
    const file = join(dir, 'busy.html');
    writeFileSync(file, [...historyHtmlChunks(doc, { script: await historyPageScript() })].join(''));
    const { page, errors } = await openTimeline(browser!.context, file);
    const counts = await page.$$eval('.mark.cluster', (els: Element[]) => els.map((el) => Number(el.getAttribute('data-count'))));
    expect(counts.length).toBeGreaterThan(100);
    expect(counts.length).toBeLessThan(1000); // about one a pixel of the plot, not one a write
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(3000);
    const before = await plotScale(page);
    const box = (await page
      .locator('.mark.cluster')
      .nth(Math.floor(counts.length / 2))
      .boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect
      .poll(
        async () => {
          const s = await plotScale(page);
          return s.to - s.from;
        },
        { timeout: 30_000 },
      )
      .toBeLessThan((before.to - before.from) / 5);
    // zoomed in, the writes in the window are told apart again: one mark each
    await expect.poll(() => page.locator('.mark.write').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.locator('.mark.cluster').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
