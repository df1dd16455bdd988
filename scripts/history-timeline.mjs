#!/usr/bin/env node
// `npm run timeline-png`: the picture of `history -o html` in the README (docs/img/history-timeline.png),
// made from the demo audit log by the built CLI and Debian's Chromium (headless, driven by
// playwright-core; a browser that downloads itself cannot be used here). The end-to-end test
// (test/e2e/history-html.test.ts) opens its pages with the same functions.
//
//   node scripts/history-timeline.mjs [--audit-log FILE] [--out PNG]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export const CHROMIUM = '/usr/bin/chromium';

/** Flags for Chromium on a closed network: no background connections, no updates, no GPU. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, headless, with a fresh profile (removed by `close`). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'rs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 760 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens a timeline page from disk and waits until it has drawn; page errors are collected in `errors`. */
export async function openTimeline(context, htmlFile, viewport = { width: 1400, height: 760 }) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(htmlFile).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  return { page, errors };
}

/** `history -o html` of `auditLog` by the built CLI (`scope`: its target and namespace; default -A), written to `htmlFile`. */
export function writeTimelineHtml(auditLog, htmlFile, scope = ['-A']) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'run.js'), 'history', ...scope, '--audit-log', auditLog, '-o', 'html', '--output-file', htmlFile], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`history -o html failed (${r.status}): ${r.stderr}`);
  return r;
}

/** The picture: the demo's timeline with the delete of api-cln6k opened, as a PNG. */
export async function writeTimelinePng(htmlFile, pngFile) {
  const browser = await launchChromium();
  try {
    const { page, errors } = await openTimeline(browser.context, htmlFile);
    await page
      .locator('.mark.write[data-verb="delete"]')
      .filter({ has: page.locator('title', { hasText: 'api-cln6k' }) })
      .first()
      .click();
    await page.waitForSelector('#detail .write.current');
    mkdirSync(dirname(pngFile), { recursive: true });
    await page.screenshot({ path: pngFile });
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const log = resolve(opt('--audit-log', join(root, 'test', 'history', 'fixtures', 'demo-audit.jsonl')));
  const out = resolve(opt('--out', join(root, 'docs', 'img', 'history-timeline.png')));
  if (!existsSync(CHROMIUM)) {
    console.error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'rs-timeline-'));
  try {
    const html = join(dir, 'history.html');
    writeTimelineHtml(log, html);
    await writeTimelinePng(html, out);
    console.log(`wrote ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
