// `npm run bench` section `timeline`: `history -A -o html` of the generated audit log (the 1 GiB
// one `history` reads, cached in .bench-cache/), its size, and its drawing in Debian's headless
// Chromium (driven by playwright-core through scripts/history-timeline.mjs, as the end-to-end test
// drives it): the page's own timings of its first drawing (parse the embedded document, lay it
// out, draw the visible part), the wall time from opening the file to that drawing, and the time
// of a redraw on zoom and on scroll. Nothing is asserted: numbers for docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;

/** Drawing the page in Chromium: the page's timings, and redraws measured in the page. */
async function drawInChromium(html) {
  const { launchChromium, openTimeline } = await import('../scripts/history-timeline.mjs');
  const browser = await launchChromium();
  try {
    const t0 = performance.now();
    const { page, errors } = await openTimeline(browser.context, html);
    const wallMs = performance.now() - t0;
    const timings = JSON.parse((await page.getAttribute('body', 'data-timings')) ?? '{}');
    const drawn = await page.evaluate(() => ({
      marks: document.querySelectorAll('#plot .mark').length,
      elements: document.querySelectorAll('#plot *').length,
      note: document.getElementById('sample-note')?.textContent ?? '',
    }));
    // a zoom in, a zoom out and a scroll, each timed in the page around its synchronous redraw
    const redraws = await page.evaluate(async () => {
      const clickMs = (id) => {
        const s = performance.now();
        document.getElementById(id).click();
        return performance.now() - s;
      };
      const zoomIn = clickMs('zoom-in');
      const zoomOut = clickMs('zoom-fit');
      const c = document.getElementById('chart');
      const s = performance.now();
      c.scrollTop = c.scrollHeight / 2;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return { zoomIn, zoomOut, scroll: performance.now() - s };
    });
    const heapMiB = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize / 2 ** 20 : null));
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
    return { wallMs, timings, drawn, redraws, heapMiB };
  } finally {
    await browser.close();
  }
}

/**
 * Measures the page of `history -A` on `log` (written to `out`, removed after). `timed` runs a
 * command under /usr/bin/time (bench/run.mjs's). Returns the numbers and the markdown lines.
 */
export async function measureTimeline({ log, out, timed, fmtMs }) {
  const runJs = join(root, 'bin', 'run.js');
  const lines = [];
  const r = timed(process.execPath, [runJs, 'history', '--audit-log', log, '-A', '-o', 'html', '--output-file', out]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`history -o html failed: ${r.stderr}`);
  const bytes = statSync(out).size;
  const result = { ms: r.ms, rssKiB: r.rssKiB, bytes };
  lines.push('| step | measured |', '|---|---|');
  lines.push(`| \`history -A -o html --output-file\` (read the log, write the page) | ${fmtMs(r.ms)}, peak RSS ${(r.rssKiB / 1024).toFixed(0)} MiB |`);
  const size = bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
  lines.push(`| the page | ${size} (one file: the document, the script, nothing else) |`);
  if (!existsSync('/usr/bin/chromium')) {
    lines.push('| drawing in headless Chromium | not measured: /usr/bin/chromium is missing (apt-get install -y chromium) |');
    rmSync(out, { force: true });
    return { ...result, lines };
  }
  const c = await drawInChromium(out);
  rmSync(out, { force: true });
  const t = c.timings;
  Object.assign(result, { chromium: c });
  lines.push(`| headless Chromium: open the file → first drawing (wall) | ${fmtMs(c.wallMs)} |`);
  lines.push(`| … in the page: parse the document / lay it out / draw what is visible | ${fmtMs(t.parseMs)} / ${fmtMs(t.modelMs)} / ${fmtMs(t.drawMs)} |`);
  lines.push(`| drawn: marks / SVG elements (the visible window only) | ${c.drawn.marks} / ${c.drawn.elements} |`);
  lines.push(`| redraw: zoom in / fit / scroll to the middle | ${fmtMs(c.redraws.zoomIn)} / ${fmtMs(c.redraws.zoomOut)} / ${fmtMs(c.redraws.scroll)} |`);
  if (c.heapMiB !== null) lines.push(`| JavaScript heap after drawing | ${c.heapMiB.toFixed(0)} MiB |`);
  lines.push(`| sampled | ${c.drawn.note ? c.drawn.note.replace(/\|/g, '\\|') : 'no: the page holds every write'} |`);
  return { ...result, lines };
}

// alone, on any log: node bench/timeline.mjs FILE (for trying it on a small log)
if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const log = process.argv[2];
  const timed = (cmd, argv) => {
    const t0 = performance.now();
    const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...argv], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    return { ms: performance.now() - t0, rssKiB: Number(r.stderr.trim().split('\n').pop()), status: r.status, stderr: r.stderr };
  };
  const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
  const m = await measureTimeline({ log, out: join(root, '.bench-cache', 'timeline-try.html'), timed, fmtMs });
  console.log(m.lines.join('\n'));
}
