/// <reference lib="dom" />
// The page's look: put in the document by the script, so the page is one <script> and its data.

import { WRITER_KINDS, WRITER_STYLE } from '../model.js';

/** Bar colours of a pod's states; `unknown` is hatched instead (the #hatch pattern). */
export const STATE_COLOR: Readonly<Record<string, string>> = {
  ready: '#8fd19e',
  'not-ready': '#ffc48a',
  Pending: '#c5ccd6',
  Running: '#9cc7f0',
  Succeeded: '#d5dbe0',
  Failed: '#f2a3a3',
  terminating: '#d8cfc9',
};

export const STATE_LABEL: Readonly<Record<string, string>> = {
  ready: 'ready',
  'not-ready': 'not ready',
  Pending: 'Pending',
  Running: 'Running (readiness not shown)',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
  terminating: 'being deleted',
  unknown: 'state not in the log',
};

const writerRules = WRITER_KINDS.map((k) => `.mark[data-writer="${k}"]{fill:${WRITER_STYLE[k].color}}`).join('\n');

export const CSS = `
*{box-sizing:border-box}
body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d232a;background:#fff;display:flex;flex-direction:column;height:100vh}
header{padding:8px 12px;border-bottom:1px solid #d6dbe1;display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center}
header h1{font-size:15px;margin:0}
#coverage,#sample-note{color:#4a5561;flex-basis:100%}
#sample-note{color:#8a4b00;font-weight:600}
#sample-note:empty{display:none}
.filters label{margin-right:10px}
.filters input{width:11em}
.legend{display:flex;flex-wrap:wrap;gap:4px 12px;flex-basis:100%}
.legend span{display:inline-flex;align-items:center;gap:4px}
.legend i{display:inline-block;width:10px;height:12px;border-radius:2px}
main{flex:1;display:flex;min-height:0}
#chart{flex:1;overflow-y:auto;overflow-x:hidden;position:relative;outline:none}
#chart:focus-visible{box-shadow:inset 0 0 0 2px #0072b2}
#plot{position:sticky;top:0;display:block;user-select:none;cursor:grab}
#plot.panning{cursor:grabbing}
#detail{width:min(440px,40vw);border-left:1px solid #d6dbe1;overflow-y:auto;padding:10px 14px}
#detail h2{font-size:14px;margin:0 0 6px}
#detail .write{border-left:3px solid #d6dbe1;padding:2px 0 6px 8px;margin:6px 0}
#detail .write.current{border-left-color:#0072b2;background:#f2f7fb}
#detail .when{color:#4a5561}
#detail .not-predicted{color:#b00020;font-weight:600}
#detail .unknown{color:#7b1fa2}
#detail .predicted{color:#1b7f3b}
#detail a{color:#005a8c}
#detail ul{padding-left:18px;margin:4px 0}
footer{border-top:1px solid #d6dbe1;padding:4px 12px;color:#4a5561;font-size:12px}
.row-label{font-size:12px;fill:#1d232a}
.row-label.controller{font-weight:600}
.row-label.deployment{font-weight:700;fill:#6b4e00}
.row-bg.deployment{fill:#fbf5e6}
.row-bg.controller{fill:#f3f6f9}
.row-bg.pod{fill:#fff}
/* the grid is drawn over the rows but under the pointer: a write on a tick (a whole second) stays clickable */
.tick{pointer-events:none}
.tick line{stroke:#e3e7eb}
.tick text{font-size:11px;fill:#4a5561}
.bar-outline{fill:none;stroke:#7d8894;stroke-width:1}
.mark{stroke:#fff;stroke-width:1;cursor:pointer}
.mark.cause-step{stroke:#1d232a;stroke-width:1;opacity:.85}
.mark[data-verdict="not-predicted"]{stroke:#d00000;stroke-width:2.5}
.mark[data-verdict="unknown"]{stroke:#1d232a;stroke-width:1.5;stroke-dasharray:2 2}
.mark.selected{stroke:#000;stroke-width:3}
.cluster{fill-opacity:.6}
${writerRules}
`;
