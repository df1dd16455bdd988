// How the timeline page's script (src/render/history-html/page/main.ts) is bundled for the
// browser: one minified IIFE with everything it uses inlined, shared by scripts/bundle.mjs (the
// build) and src/services/history-page.ts (the tests, run from the sources).
import { join } from 'node:path';

/**
 * The page uses render/history.ts's wording (cause sentences, the coverage line); the table code
 * beside it there is never called in the page, so the table library resolves to nothing.
 */
const noTablePlugin = {
  name: 'rs-page-no-table',
  setup(b) {
    b.onResolve({ filter: /^cli-table3(\/.*)?$/ }, (a) => ({ path: a.path, namespace: 'rs-page-empty' }));
    b.onLoad({ filter: /.*/, namespace: 'rs-page-empty' }, () => ({
      contents: 'export default {}; export const strlen = (s) => s.length; export const colorizeLines = (l) => l;',
      loader: 'js',
    }));
  },
};

/** esbuild options for the page's script; `root` is the project's root. */
export function pageBuildOptions(root) {
  return {
    entryPoints: [join(root, 'src', 'render', 'history-html', 'page', 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [noTablePlugin],
  };
}
