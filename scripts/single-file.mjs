// The single-file entry (issue 20, items 8 and 9), built by scripts/bundle.mjs next to the ESM bundle:
//
//   dist/bundle/main.cjs     every command in one CommonJS file (src/main/dispatch.ts): direct
//                            dispatch from the embedded manifest, @oclif/core replaced by
//                            src/main/oclif-lite.ts; only Node.js built-ins are required
//   dist/bundle/heavy.cjs    the packages the hot commands never run (HEAVY), required from main.cjs
//   dist/bundle/main-<command>.cjs  the same with one hot command only (SPLIT: diff, explain, version)
//   dist/bundle/light.cjs    what the manifest alone answers (help, completion scripts, TAB on
//                            commands and flags: src/main/light.ts), asked first by boot.cjs
//   dist/bundle/boot.cjs    what bin/run.cjs requires: loads main.cjs (and heavy.cjs when it is
//                            required) with a V8 code cache
//   dist/bundle/sea-start.cjs boot.cjs as a Node single executable's main script (scripts/sea.mjs)
//
// One CommonJS file: no ESM loader, no module resolution, one read. Its modules are evaluated
// when first used (esbuild wraps what is reached by import()), so a command costs what it runs.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';
import { QUIET_DEPRECATIONS } from './quiet-deprecations.mjs';

/** The code cache loader; HASH is the bundle's (main.cjs) sha256, so a new build never reads an old cache. */
export const START_TEMPLATE = readFileSync(new URL('./start-template.cjs', import.meta.url), 'utf8');

/** esbuild sees `import.meta.url` in CommonJS as empty: give it the file's URL, computed on first use. */
const BANNER = `${QUIET_DEPRECATIONS}\nvar __rsMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };`;

/**
 * '@oclif/core' → src/main/oclif-lite.ts (its subpaths stay oclif's). src/cli/help.ts imports
 * oclif itself only for its oclif help class, which the single file never runs (the dispatch uses
 * its format functions): that import stays oclif's, marked free of side effects, so esbuild drops
 * it with the unused class.
 */
function litePlugin(root) {
  const lite = join(root, 'src', 'main', 'oclif-lite.ts');
  const help = join(root, 'src', 'cli', 'help.ts');
  return {
    name: 'rs-oclif-lite',
    setup(b) {
      b.onResolve({ filter: /^@oclif\/core$/ }, async (a) => {
        if (a.pluginData === 'rs-oclif') return undefined; // the resolve below: oclif's own
        if (a.importer !== help) return { path: lite };
        const r = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: 'rs-oclif' });
        return { ...r, sideEffects: false };
      });
    },
  };
}

/**
 * Two packages await at their top level, which CommonJS cannot: yoga-layout (ink's layout engine)
 * awaits its WebAssembly start, and ink awaits its devtools under DEV=true. yoga is started
 * synchronously instead (Emscripten's instantiateWasm hook, with the module built from the same
 * embedded bytes); ink's devtools load without the wait (DEV=true only). Each patch must apply.
 * These are what the CommonJS file needs to hold them at all, not a speed-up (docs/startup.md).
 */
function topLevelAwaitPlugin() {
  const YOGA = 'const Yoga = wrapAssembly(await loadYoga());';
  const INK = "        await import('./devtools.js');";
  const patch = (path, from, to) => {
    const text = readFileSync(path, 'utf8');
    if (!text.includes(from))
      throw new Error(`single-file: ${path} no longer contains ${JSON.stringify(from)}: review topLevelAwaitPlugin in scripts/single-file.mjs`);
    return text.replace(from, to);
  };
  return {
    name: 'rs-no-top-level-await',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (a) => {
        const glue = readFileSync(join(dirname(a.path), '..', 'binaries', 'yoga-wasm-base64-esm.js'), 'utf8');
        const wasm = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(glue)?.[1];
        if (!wasm) throw new Error('single-file: yoga-layout carries no base64 WebAssembly any more: review topLevelAwaitPlugin');
        const start = `(() => { const m = { instantiateWasm(imports, done) { const i = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(${JSON.stringify(wasm)}, 'base64')), imports); done(i); return i.exports; } }; loadYoga(m); if (!m.calledRun) throw new Error('yoga-layout did not start'); return m; })()`;
        return { contents: patch(a.path, YOGA, `const Yoga = wrapAssembly(${start});`), loader: 'js' };
      });
      // (its package.json is read only for the devtools too: there is no file beside the single one)
      b.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (a) => {
        const text = patch(a.path, INK, "        void import('./devtools.js');");
        const from = '    ? await loadPackageJson()\n';
        if (!text.includes(from)) throw new Error('single-file: ink/build/reconciler.js changed: review topLevelAwaitPlugin in scripts/single-file.mjs');
        return { contents: text.replace(from, "    ? { name: 'ink', version: undefined }\n"), loader: 'js' };
      });
    },
  };
}

/**
 * Parts of @oclif/core that the lite Command reaches at load time but uses only on an error or a
 * debug flag (the logger and its `debug` package, the error handler with oclif's help, the help
 * class behind the --help flag builder): required on first use. Each patch must apply. Kept by
 * measurement, by group (docs/startup.md, "Patches to third-party packages"): each group
 * alone spares the start of the shared modules behind it (oclif's ux, theme, screen, logger).
 */
const LITE_PATCHES = {
  'lib/errors/error.js': [['const logger_1 = require("../logger");', 'const logger_1 = __rsLazy(() => require("../logger"));']],
  'lib/errors/warn.js': [['const logger_1 = require("../logger");', 'const logger_1 = __rsLazy(() => require("../logger"));']],
  'lib/parser/parse.js': [
    ['const logger_1 = require("../logger");', 'const logger_1 = __rsLazy(() => require("../logger"));'],
    // stdin (`-` values) is read with node:readline
    ['const node_readline_1 = require("node:readline");', 'const node_readline_1 = __rsLazy(() => require("node:readline"));'],
  ],
  'lib/flags.js': [
    ['const help_1 = require("./help");', 'const help_1 = __rsLazy(() => require("./help"));'],
    ['const fs_1 = require("./util/fs");', 'const fs_1 = __rsLazy(() => require("./util/fs"));'],
  ],
  // the file checks of Args.file/Args.directory (node:fs/promises)
  'lib/args.js': [['const fs_1 = require("./util/fs");', 'const fs_1 = __rsLazy(() => require("./util/fs"));']],
  // how a parse error is laid out (supports-color, node:tty, the screen width): on an error only
  'lib/parser/errors.js': [
    ['const list_1 = __importDefault(require("../ux/list"));', 'const list_1 = __rsLazyDefault(() => require("../ux/list"));'],
    ['const theme_1 = require("../ux/theme");', 'const theme_1 = __rsLazy(() => require("../ux/theme"));'],
  ],
  // the parser's flag usage lines (oclif's ux: spinner, theme, supports-color), for its help only
  'lib/parser/index.js': [['var help_1 = require("./help");', 'var help_1 = __rsLazy(() => require("./help"));']],
  // CLIError is a base class of the parser's errors (evaluated at load); how it prints, on an error only
  'lib/errors/errors/cli.js': [
    ['const clean_stack_1 = __importDefault(require("clean-stack"));', 'const clean_stack_1 = __rsLazyDefault(() => require("clean-stack"));'],
    ['const indent_string_1 = __importDefault(require("indent-string"));', 'const indent_string_1 = __rsLazyDefault(() => require("indent-string"));'],
    ['const wrap_ansi_1 = __importDefault(require("wrap-ansi"));', 'const wrap_ansi_1 = __rsLazyDefault(() => require("wrap-ansi"));'],
    ['const screen_1 = require("../../screen");', 'const screen_1 = __rsLazy(() => require("../../screen"));'],
    ['const theme_1 = require("../../ux/theme");', 'const theme_1 = __rsLazy(() => require("../../ux/theme"));'],
  ],
  // every export of errors/index.js is a getter: each module on first use
  'lib/errors/index.js': [[/var (\w+) = require\(("[^"]+")\);/g, 'var $1 = __rsLazy(() => require($2));']],
};
/** Each module required on its first use: a proxy for a namespace, a getter for a default export. */
const LAZY_HELPERS = `
function __rsLazy(load) { let m; return new Proxy({}, { get(_, k) { m ??= load(); return m[k]; }, has(_, k) { m ??= load(); return k in m; } }); }
function __rsLazyDefault(load) { let m; return { get default() { if (m === undefined) { const x = load(); m = x && x.__esModule ? x.default : x; } return m; } }; }
`;
function liteOclifPatchPlugin() {
  return {
    name: 'rs-oclif-lite-patches',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]@oclif[\\/]core[\\/]lib[\\/].*\.js$/ }, (a) => {
        const rel = a.path.replace(/\\/g, '/').replace(/^.*\/node_modules\/@oclif\/core\//, '');
        const patches = LITE_PATCHES[rel];
        if (!patches) return undefined;
        let text = readFileSync(a.path, 'utf8');
        for (const [from, to] of patches) {
          const found = typeof from === 'string' ? text.includes(from) : from.test(text);
          if (!found) throw new Error(`single-file: @oclif/core/${rel} no longer contains ${from}: review LITE_PATCHES in scripts/single-file.mjs`);
          text = text.replace(from, to);
        }
        return { contents: text + LAZY_HELPERS, loader: 'js' };
      });
    },
  };
}

/**
 * node:fs/promises is not in Node.js's start-up snapshot (about 1 ms to compile on first require)
 * and the hot commands import it (the snapshot reader's `open`) without calling it: each of its
 * functions is exported here as a wrapper that requires it on the first call. (A proxy standing
 * for the module would not do: esbuild's interop copies a CommonJS module's properties on import,
 * which loads it.) `constants` is node:fs's own object, already loaded.
 */
async function lazyBuiltinsPlugin(root) {
  const fsp = await import('node:fs/promises');
  const fns = Object.keys(fsp).filter((k) => k !== 'default' && typeof fsp[k] === 'function' && /^[A-Za-z_$][\w$]*$/.test(k));
  const others = Object.keys(fsp).filter((k) => k !== 'default' && !fns.includes(k));
  if (others.some((k) => k !== 'constants')) throw new Error(`single-file: node:fs/promises exports ${others.join(', ')}: review lazyBuiltinsPlugin`);
  const contents = [
    "let m;\nconst load = () => (m ??= require('node:fs/promises'));",
    ...fns.map((k) => `export function ${k}(...args) { return load().${k}(...args); }`),
    "export const constants = require('node:fs').constants;",
    `export default { ${fns.join(', ')}, constants };`,
  ].join('\n');
  // node:perf_hooks (src/runtime/clock.ts: 0.8 ms to load, with its histograms and observers) and
  // node:os are read by property (esbuild's CommonJS interop reads `mod.name` where it is used,
  // and __toESM copies getters): a CommonJS module of getters loads each on the first property read
  const objects = {};
  for (const id of LAZY_OBJECTS) {
    const keys = Object.keys(createRequire(import.meta.url)(`node:${id}`));
    objects[id] = [
      `let m;\nconst load = () => (m ??= require('node:${id}'));`,
      `for (const k of ${JSON.stringify(keys)}) Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });`,
    ].join('\n');
  }
  // node:tty (it loads node:net, perf's observers and diagnostics_channel) for the
  // question chalk asks when it is evaluated, tty.isatty(1) and (2): src/cli/stdio.ts's isPlainFd
  // tells a file, a pipe or /dev/null (no terminal) from its fstat; anything else asks node:tty
  const ttyKeys = Object.keys(createRequire(import.meta.url)('node:tty')).filter((k) => k !== 'isatty');
  objects.tty = [
    "let m;\nconst load = () => (m ??= require('node:tty'));",
    `const { isPlainFd } = require(${JSON.stringify(join(root, 'src', 'cli', 'stdio.ts'))});`,
    'exports.isatty = (fd) => ((fd === 1 || fd === 2) && isPlainFd(fd) ? false : load().isatty(fd));',
    `for (const k of ${JSON.stringify(ttyKeys)}) Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });`,
  ].join('\n');
  const objectFilter = new RegExp(`^(node:)?(${[...LAZY_OBJECTS, 'tty'].join('|')})$`);
  return {
    name: 'rs-lazy-builtins',
    setup(b) {
      b.onResolve({ filter: /^(node:)?fs\/promises$/ }, (a) =>
        a.namespace === 'rs-lazy-builtin' ? { path: a.path, external: true } : { path: 'fs/promises', namespace: 'rs-lazy-builtin' },
      );
      b.onLoad({ filter: /.*/, namespace: 'rs-lazy-builtin' }, () => ({ contents, loader: 'js' }));
      b.onResolve({ filter: objectFilter }, (a) =>
        a.namespace === 'rs-lazy-object' ? { path: a.path, external: true } : { path: a.path.replace(/^node:/, ''), namespace: 'rs-lazy-object' },
      );
      b.onLoad({ filter: /.*/, namespace: 'rs-lazy-object' }, (a) => ({ contents: objects[a.path], loader: 'js', resolveDir: root }));
    },
  };
}

/** Built-ins loaded on the first read of one of their properties (lazyBuiltinsPlugin). */
const LAZY_OBJECTS = ['perf_hooks', 'os'];

/** The virtual entries: the manifest and package fields embedded as JSON text (JSON.parse is V8's fastest object literal). */
function entryPlugin(root, manifest, pkg) {
  const data = `const manifest = JSON.parse(${JSON.stringify(JSON.stringify(manifest))});\nconst pkg = JSON.parse(${JSON.stringify(JSON.stringify(pkg))});\n`;
  const dispatch = JSON.stringify(join(root, 'src', 'main', 'dispatch.ts'));
  const light = JSON.stringify(join(root, 'src', 'main', 'light.ts'));
  const commands = JSON.stringify(join(root, 'src', 'main', 'commands.ts'));
  const sea = JSON.stringify(join(root, 'src', 'main', 'sea.ts'));
  // run: the dispatch (false: oclif's to answer); fallback: the single executable's answer then
  return {
    name: 'rs-single-entry',
    setup(b) {
      b.onResolve({ filter: /^rs-single:/ }, (a) => ({ path: a.path, namespace: 'rs-single' }));
      b.onLoad({ filter: /^rs-single:main$/, namespace: 'rs-single' }, () => ({
        contents: `${data}import { dispatch } from ${dispatch};\nimport { COMMANDS } from ${commands};\nimport { seaFallback } from ${sea};\nexport function run(argv) { return dispatch(argv, manifest, pkg, COMMANDS); }\nexport function fallback(argv) { return seaFallback(argv, manifest, pkg); }\n`,
        resolveDir: root,
        loader: 'js',
      }));
      // main-<command>.cjs: the same dispatch with that one command (boot.cjs runs it for that command's words)
      b.onLoad({ filter: /^rs-single:main-[a-z-]+$/, namespace: 'rs-single' }, (a) => {
        const id = a.path.slice('rs-single:main-'.length);
        const module = JSON.stringify(join(root, 'src', 'commands', `${id}.ts`));
        // the file runs `id`'s words only (boot.cjs): its dispatch, help and the executable's
        // fallback read that command's entry, so the others are left out (59 KB of JSON to read,
        // hold in the code cache and parse at every start), but for a command that lists them all
        const own = WHOLE_MANIFEST.has(id) ? manifest : { ...manifest, commands: { [id]: manifest.commands[id] } };
        if (!own.commands[id]) throw new Error(`single-file: the manifest has no command ${id}`);
        const ownData = `const manifest = JSON.parse(${JSON.stringify(JSON.stringify(own))});\nconst pkg = JSON.parse(${JSON.stringify(JSON.stringify(pkg))});\n`;
        return {
          contents: `${ownData}import { dispatch } from ${dispatch};\nimport { seaFallback } from ${sea};\nconst COMMANDS = { ${JSON.stringify(id)}: () => import(${module}) };\nexport function run(argv) { return dispatch(argv, manifest, pkg, COMMANDS); }\nexport function fallback(argv) { return seaFallback(argv, manifest, pkg); }\n`,
          resolveDir: root,
          loader: 'js',
        };
      });
      // answer: stdout's text for what the manifest alone answers, or null (main.cjs runs it)
      b.onLoad({ filter: /^rs-single:light$/, namespace: 'rs-single' }, () => ({
        contents: `${data}import { lightAnswer } from ${light};\nexport function answer(argv) { return lightAnswer(argv, manifest, pkg); }\n`,
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/** The hot commands with a file of their own (main-<command>.cjs); the others run from main.cjs. */
export const SPLIT = ['completion', 'diff', 'explain', 'version'];

/** Split commands that read every command of the manifest (completion's scripts and TAB list them). */
const WHOLE_MANIFEST = new Set(['completion']);

/** light.cjs must carry none of HEAVY's packages (nor main.cjs's stubs of them): the build stops if it does. */
function checkLight(metafile) {
  const names = HEAVY.map((h) => h.replace(/\/\*$/, ''));
  for (const [input, { bytesInOutput }] of Object.entries(Object.values(metafile.outputs)[0].inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
    if (bytesInOutput > 0 && (input.startsWith('rs-heavy:') || (pkg && names.includes(pkg)))) {
      throw new Error(`single-file: light.cjs carries ${input}: src/main/light.ts must stay off the commands' packages`);
    }
  }
}

/**
 * esbuild's charset ascii escapes strings and identifiers but leaves regular expressions as written
 * (history's arrow in its patterns). One such character makes V8 hold the whole 2 MB source as UTF-16 (twice the
 * memory, slower to read and to check against its code cache), so they are escaped here: `\uXXXX`
 * means the same code unit in a regular expression, a string or a template. boot.cjs then reads
 * the file as latin1, one byte a character. A character after a backslash (an identity escape)
 * would change meaning: the build stops instead.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (text[i - 1] === '\\')
      throw new Error(`single-file: ${file}: a non-ASCII character after a backslash at ${i}: review asciiOnly in scripts/single-file.mjs`);
    out += text.slice(last, i) + `\\u${c.toString(16).padStart(4, '0')}`;
    last = i + 1;
  }
  if (last > 0) writeFileSync(file, out + text.slice(last));
}

/**
 * Packages the hot commands never run (the Kubernetes client, ink/React, protobufjs, prom-client) or
 * rarely (yaml and js-yaml: the small examples go through the own fast reader; oclif's ejs and
 * spinners), kept out of main.cjs in heavy.cjs: main.cjs stays about a
 * fifth of the whole, and a start reads, deserialises and evaluates only that (the Kubernetes
 * client alone is 1.9 MB; React's reconciler 0.8 MB). React and ink must be one copy for both
 * files, so every import of them from main.cjs goes to heavy.cjs.
 */
export const HEAVY = [
  '@kubernetes/client-node',
  '@kubernetes/client-node/*',
  'ink',
  'react',
  'react/*',
  'protobufjs',
  'protobufjs/*',
  'prom-client',
  'yaml',
  'yaml/*',
  'js-yaml',
  'cli-spinners',
  'ejs',
];

/** main.cjs requires a HEAVY package through heavy.cjs, loaded with boot.cjs's code cache when it is there. */
const HEAVY_BANNER = `var __rsHeavy; function __rsRequireHeavy(id) { __rsHeavy ??= (globalThis.__rsLoadHeavy || require)(require('node:path').join(__dirname, 'heavy.cjs')); return __rsHeavy(id); }`;

/** In main.cjs: each HEAVY specifier becomes a module that asks heavy.cjs for it; `found` collects them. */
function heavyStubPlugin(found) {
  const patterns = HEAVY.map((h) => (h.endsWith('/*') ? (id) => id.startsWith(h.slice(0, -1)) : (id) => id === h));
  return {
    name: 'rs-single-heavy-stub',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (a) => {
        if (a.namespace === 'rs-heavy' || !patterns.some((p) => p(a.path))) return undefined;
        found.add(a.path);
        return { path: a.path, namespace: 'rs-heavy' };
      });
      b.onLoad({ filter: /.*/, namespace: 'rs-heavy' }, (a) => ({ contents: `module.exports = __rsRequireHeavy(${JSON.stringify(a.path)});\n`, loader: 'js' }));
    },
  };
}

/** heavy.cjs's entry: each specifier main.cjs asks for, evaluated on its first require. */
function heavyEntryPlugin(root, specifiers) {
  return {
    name: 'rs-single-heavy',
    setup(b) {
      b.onResolve({ filter: /^rs-single:heavy$/ }, (a) => ({ path: a.path, namespace: 'rs-single' }));
      b.onLoad({ filter: /^rs-single:heavy$/, namespace: 'rs-single' }, () => ({
        contents: `const load = {\n${specifiers.map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(id)}),`).join('\n')}\n};\nmodule.exports = (id) => load[id]();\n`,
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/** Builds main.cjs, the hot commands' files, heavy.cjs, light.cjs, boot.cjs and sea-start.cjs into `out`. */
export async function buildSingleFile({ root, out, manifest, pkg, plugins, external, minify, workerSource }) {
  // src/main/oclif-lite.ts's Command does not print oclif's flag deprecation warnings
  for (const cmd of Object.values(manifest.commands))
    for (const [name, flag] of Object.entries(cmd.flags ?? {}))
      if (flag.deprecated || flag.deprecateAliases)
        throw new Error(`single-file: ${cmd.id} --${name} is deprecated: src/main/oclif-lite.ts's Command would not warn as oclif's does`);
  const slimPkg = { name: pkg.name, version: pkg.version, description: pkg.description, oclif: pkg.oclif };
  const common = {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // import() becomes require(): a dynamic import inside a vm.Script (boot.cjs's code cache) fails
    // on Node 20 with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING once its function comes from the cache
    supported: { 'dynamic-import': false },
    charset: 'ascii', // and asciiOnly() for what it leaves: boot.cjs reads one byte a character
    banner: { js: BANNER },
    define: { 'import.meta.url': '__rsMeta.url', __RS_HISTORY_WORKER__: JSON.stringify(workerSource) },
    minifyWhitespace: minify,
    minifySyntax: minify,
    keepNames: true,
    legalComments: 'none',
    jsx: 'automatic',
    external,
    logLevel: 'error',
    plugins: [
      entryPlugin(root, manifest, slimPkg),
      litePlugin(root),
      await lazyBuiltinsPlugin(root),
      topLevelAwaitPlugin(),
      liteOclifPatchPlugin(),
      ...plugins,
    ],
  };
  const found = new Set();
  const ascii = (f) => asciiOnly(join(out, f));
  await build({
    ...common,
    banner: { js: `${BANNER}\n${HEAVY_BANNER}` },
    plugins: [heavyStubPlugin(found), ...common.plugins],
    entryPoints: ['rs-single:main'],
    outfile: join(out, 'main.cjs'),
  });
  ascii('main.cjs');
  // the hot commands' own files: esbuild evaluates and V8 deserialises what a file holds, so
  // `diff` from a file without the other commands starts with less of both
  for (const id of SPLIT) {
    await build({
      ...common,
      banner: { js: `${BANNER}\n${HEAVY_BANNER}` },
      plugins: [heavyStubPlugin(found), ...common.plugins],
      entryPoints: [`rs-single:main-${id}`],
      outfile: join(out, `main-${id}.cjs`),
    });
    ascii(`main-${id}.cjs`);
  }
  const heavy = [...found].sort();
  await build({ ...common, plugins: [heavyEntryPlugin(root, heavy), ...common.plugins], entryPoints: ['rs-single:heavy'], outfile: join(out, 'heavy.cjs') });
  ascii('heavy.cjs');
  const light = await build({ ...common, metafile: true, entryPoints: ['rs-single:light'], outfile: join(out, 'light.cjs') });
  checkLight(light.metafile);
  // what light.cjs carries, for test/packaging/startup.test.ts (outside the bundle, as bundle-meta.json)
  const carried = Object.entries(Object.values(light.metafile.outputs)[0].inputs)
    .filter(([, i]) => i.bytesInOutput > 0)
    .map(([input]) => input);
  writeFileSync(join(dirname(out), `${basename(out)}-light-meta.json`), JSON.stringify({ inputs: carried.sort() }, null, 1) + '\n');
  ascii('light.cjs');
  const files = ['main.cjs', 'heavy.cjs', 'light.cjs', ...SPLIT.map((id) => `main-${id}.cjs`)];
  const sha = createHash('sha256');
  for (const f of files) sha.update(readFileSync(join(out, f)));
  const hash = sha.digest('hex').slice(0, 16);
  const start = START_TEMPLATE.replace('__RS_BUNDLE_HASH__', hash).replace("const SPLIT = ['__RS_SPLIT__'];", `const SPLIT = ${JSON.stringify(SPLIT)};`);
  if (!start.includes(`const SPLIT = ${JSON.stringify(SPLIT)};`)) throw new Error('single-file: start-template.cjs has no SPLIT line');
  writeFileSync(join(out, 'boot.cjs'), start);
  // the single executable's main script (scripts/sea.mjs): the same loader, main.cjs and heavy.cjs as its assets
  writeFileSync(join(out, 'sea-start.cjs'), start.replace('const SEA = false;', 'const SEA = true;'));
  return { hash, heavy };
}

/**
 * The history reader's worker as one ESM script in a data: URL (it awaits at its top level, which
 * CommonJS cannot), for `new Worker(url)` in the single file: only built-ins, required through a
 * require made for the working folder (a data: URL has no file to resolve from).
 */
export async function buildWorkerSource({ root, plugins, external, minify }) {
  const r = await build({
    entryPoints: [join(root, 'src', 'services', 'history-reader-worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    charset: 'ascii',
    banner: {
      js: "import { createRequire as __rsCreateRequire } from 'node:module';\nconst require = __rsCreateRequire(process.cwd() + '/');\nvar __rsMeta = { url: 'file:///' };",
    },
    define: { 'import.meta.url': '__rsMeta.url', __RS_HISTORY_WORKER__: 'undefined' },
    minifyWhitespace: minify,
    minifySyntax: minify,
    keepNames: true,
    legalComments: 'none',
    external,
    write: false,
    logLevel: 'error',
    plugins,
  });
  return `data:text/javascript;base64,${Buffer.from(r.outputFiles[0].text).toString('base64')}`;
}
