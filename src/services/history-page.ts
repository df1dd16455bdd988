// The script of history's timeline page (src/render/history-html/page/), which -o html inlines.
// `npm run build` bundles it (scripts/bundle.mjs) into one file beside the compiled code, so the
// plain build (dist/history-page.js) and the bundle (dist/bundle/history-page.js) both find it one
// folder up from the module that loads it. Run from the TypeScript sources (the tests), it is
// bundled on the spot with esbuild, the build's own tool.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The name of the page's bundled script, in dist/ and dist/bundle/. */
const HISTORY_PAGE_FILE = 'history-page.js';

let loaded: string | undefined;

export async function historyPageScript(): Promise<string> {
  if (loaded !== undefined) return loaded;
  for (const rel of [`../${HISTORY_PAGE_FILE}`, `./${HISTORY_PAGE_FILE}`]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return (loaded = readFileSync(url, 'utf8'));
  }
  if (import.meta.url.endsWith('.ts')) return (loaded = await bundleFromSources());
  throw new Error(`the timeline page's script (${HISTORY_PAGE_FILE}) is missing beside ${fileURLToPath(new URL('.', import.meta.url))}: run "npm run build"`);
}

async function bundleFromSources(): Promise<string> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // a name esbuild does not see, so the CLI's own bundle never tries to carry esbuild
  const tool = 'esbuild';
  const esbuild = (await import(tool)) as typeof import('esbuild');
  const { pageBuildOptions } = (await import(new URL('../../scripts/page-build.mjs', import.meta.url).href)) as {
    pageBuildOptions(root: string): import('esbuild').BuildOptions;
  };
  const r = await esbuild.build({ ...pageBuildOptions(root), write: false });
  return r.outputFiles![0].text;
}
