#!/usr/bin/env node
// `npm run bundle` (part of `npm run build`): bundles the CLI with esbuild into dist/bundle/, a
// self-contained oclif root that needs nothing but Node.js >= 20:
//
//   dist/bundle/run.js                 the entry (oclif's execute), what bin/run.js and the krew launcher run
//   dist/bundle/commands/<id>.js       one ESM entry per command (src/commands/*.ts)
//   dist/bundle/help.js                the kubectl-like help class (src/cli/help.ts), loaded only for --help
//   dist/bundle/hooks/<event>.js       oclif's hooks (package.json oclif.hooks), e.g. the unknown-command answer
//   dist/bundle/chunks/*.js            code shared between entries, and the lazily imported parts
//                                      (@kubernetes/client-node, ink/React, yaml, the sandbox …)
//   dist/bundle/package.json           name, version and the oclif section of the bundle root
//   dist/bundle/oclif.manifest.json    the root manifest with every command's path pointing at its entry
//
// oclif stays manifest-driven: it reads oclif.manifest.json and imports only the entry of the command
// that runs (--help imports none). The esbuild metafile goes to dist/bundle-meta.json (outside the
// bundle) so tests can tell which chunk holds which package.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pageBuildOptions } from './page-build.mjs';
import { QUIET_DEPRECATIONS } from './quiet-deprecations.mjs';
import { buildSingleFile, buildWorkerSource } from './single-file.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
// --outdir DIR (default dist/bundle), --no-minify (readable output, e.g. for --cpu-prof)
const out = argv.includes('--outdir') ? resolve(argv[argv.indexOf('--outdir') + 1]) : join(root, 'dist', 'bundle');
const minify = !argv.includes('--no-minify');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const manifestPath = join(root, 'oclif.manifest.json');
if (!existsSync(manifestPath)) {
  console.error('bundle: oclif.manifest.json is missing: run `tsc -p tsconfig.build.json && oclif manifest` first');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const commandFiles = readdirSync(join(root, 'src', 'commands'))
  .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
  .sort();
const entryPoints = commandFiles.map((f) => ({ in: join(root, 'src', 'commands', f), out: `commands/${f.replace(/\.tsx?$/, '')}` }));
const hasHelp = existsSync(join(root, 'src', 'cli', 'help.ts'));
if (hasHelp) entryPoints.push({ in: join(root, 'src', 'cli', 'help.ts'), out: 'help' });
// oclif's hooks (package.json oclif.hooks: the unknown-command answer), one entry each, by event
const hooks = Object.fromEntries(
  Object.entries(pkg.oclif.hooks ?? {}).map(([event, target]) => {
    const src = join(
      root,
      String(target)
        .replace(/^\.\/dist\//, 'src/')
        .replace(/\.js$/, '.ts'),
    );
    entryPoints.push({ in: src, out: `hooks/${event}` });
    return [event, `./hooks/${event}.js`];
  }),
);
entryPoints.push({ in: 'rs-bundle:run', out: 'run' });
// history reads big audit logs on a thread of its own (src/services/history-reader.ts): its script
// sits beside the chunks, where the reader's code looks for it
entryPoints.push({ in: join(root, 'src', 'services', 'history-reader-worker.ts'), out: 'chunks/history-reader-worker' });

// Every command in the manifest must have an entry, and every entry a manifest command.
const ids = Object.keys(manifest.commands).sort();
const entries = commandFiles.map((f) => f.replace(/\.tsx?$/, '')).sort();
if (ids.join() !== entries.join()) {
  console.error(`bundle: oclif.manifest.json (${ids.join(', ')}) does not match src/commands (${entries.join(', ')}): rebuild the manifest`);
  process.exit(2);
}

// CommonJS dependencies bundled into ESM chunks still call require() for Node built-ins and read
// __dirname/__filename: give every chunk module-scoped ones.
const banner = [
  "import { createRequire as __rsCreateRequire } from 'node:module';",
  "import { fileURLToPath as __rsFileURLToPath } from 'node:url';",
  "import { dirname as __rsDirname } from 'node:path';",
  'const require = __rsCreateRequire(import.meta.url);',
  'const __filename = __rsFileURLToPath(import.meta.url);',
  'const __dirname = __rsDirname(__filename);',
  QUIET_DEPRECATIONS,
].join('\n');

/** The entry: oclif's execute, with the bundle directory as the oclif root. */
const entryPlugin = {
  name: 'rs-entry',
  setup(b) {
    b.onResolve({ filter: /^rs-bundle:/ }, (a) => ({ path: a.path, namespace: 'rs-entry' }));
    b.onLoad({ filter: /^rs-bundle:run$/, namespace: 'rs-entry' }, () => ({
      contents: "import 'rs-bundle:settings';\nimport { execute } from '@oclif/core';\nawait execute({ dir: import.meta.url });\n",
      resolveDir: root,
      loader: 'js',
    }));
    // The bundle is compiled JavaScript: oclif must not look for tsconfig.json and TypeScript
    // sources (it would under NODE_ENV=development|test). oclif reads its settings when it loads,
    // so this module is evaluated before it.
    b.onLoad({ filter: /^rs-bundle:settings$/, namespace: 'rs-entry' }, () => ({
      contents: 'globalThis.oclif = { ...globalThis.oclif, enableAutoTranspile: false };\n',
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/**
 * `createRequire(import.meta.url)('pkg')` (used to load a package lazily and synchronously, e.g.
 * yaml in src/input/yaml-source.ts) is invisible to esbuild: rewrite it to a plain require('pkg'),
 * which esbuild bundles as a lazily initialised module.
 */
const createRequirePlugin = {
  name: 'rs-create-require',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, (a) => {
      const text = readFileSync(a.path, 'utf8');
      if (!text.includes('createRequire(import.meta.url)(')) return undefined;
      const contents = text.replace(/createRequire\(import\.meta\.url\)\(\s*('[^']+'|"[^"]+")\s*\)/g, 'require($1)');
      return { contents, loader: a.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints,
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: banner },
  minifyWhitespace: minify,
  minifySyntax: minify,
  keepNames: true,
  legalComments: 'none',
  jsx: 'automatic',
  // optional peers that their packages load only on request (DEV=true for ink's devtools, native
  // speed-ups for ws, node-fetch's optional encoding): never installed, never bundled. oclif's
  // tsconfig reader requires typescript (only in development, and never with enableAutoTranspile
  // false).
  external: ['react-devtools-core', 'bufferutil', 'utf-8-validate', 'encoding', 'typescript'],
  metafile: true,
  logLevel: 'warning',
  plugins: [entryPlugin, createRequirePlugin],
});

// history -o html's page script (src/services/history-page.ts): beside the bundle's code, and
// beside the plain build's when this is the default bundle of `npm run build`
const page = await build({ ...pageBuildOptions(root), write: false, metafile: true });
const pageText = page.outputFiles[0].text;
writeFileSync(join(out, 'history-page.js'), pageText);
if (out === join(root, 'dist', 'bundle')) writeFileSync(join(root, 'dist', 'history-page.js'), pageText);

// The single file (main.cjs and the hot commands' files: direct dispatch; boot.cjs and
// sea-start.cjs: the start): the same createRequire rewrite, the history worker embedded as code.
const singlePlugins = [createRequirePlugin];
const singleExternal = ['react-devtools-core', 'bufferutil', 'utf-8-validate', 'encoding', 'typescript'];
const workerSource = await buildWorkerSource({ root, plugins: singlePlugins, external: singleExternal, minify });
await buildSingleFile({ root, out, manifest, pkg, plugins: singlePlugins, external: singleExternal, minify, workerSource });

// The bundle's own oclif root.
const bundlePkg = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
  license: pkg.license,
  type: 'module',
  engines: pkg.engines,
  oclif: {
    ...pkg.oclif,
    commands: './commands',
    ...(hasHelp ? { helpClass: './help.js' } : {}),
    ...(Object.keys(hooks).length ? { hooks } : {}),
  },
};
writeFileSync(join(out, 'package.json'), JSON.stringify(bundlePkg, null, 2) + '\n');

const bundleManifest = { ...manifest, commands: {} };
for (const [id, cmd] of Object.entries(manifest.commands)) {
  bundleManifest.commands[id] = { ...cmd, isESM: true, relativePath: ['commands', `${id.replaceAll(':', '/')}.js`] };
}
writeFileSync(join(out, 'oclif.manifest.json'), JSON.stringify(bundleManifest, null, 2) + '\n');

// Which packages each output file carries (for the lazy-loading tests), and the metafile itself.
const pkgDirOf = (input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
const outputs = {};
const bundledDirs = new Set();
for (const [file, info] of Object.entries(result.metafile.outputs)) {
  const packages = new Set();
  for (const input of Object.keys(info.inputs)) {
    const dir = pkgDirOf(input);
    if (!dir) continue;
    bundledDirs.add(dir);
    packages.add(dir.replace(/^.*node_modules\//, ''));
  }
  outputs[relative(out, join(root, file))] = {
    bytes: info.bytes,
    entryPoint: info.entryPoint ?? null,
    imports: info.imports.filter((i) => !i.external).map((i) => ({ path: relative(out, join(root, i.path)), kind: i.kind })),
    externals: [...new Set(info.imports.filter((i) => i.external).map((i) => i.path))].sort(),
    packages: [...packages].sort(),
  };
}
writeFileSync(join(dirname(out), `${basename(out)}-meta.json`), JSON.stringify({ outputs }, null, 1) + '\n');

// The bundle carries third-party code with its license comments stripped: their notices go here.
const notices = [];
for (const dir of [...bundledDirs].sort()) {
  const pj = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const licenseFile = readdirSync(join(root, dir)).find((f) => /^(licen[cs]e|copying)(\.|-|$)/i.test(f));
  const text = licenseFile
    ? readFileSync(join(root, dir, licenseFile), 'utf8').trim()
    : `(no license file in the package; package.json says: ${pj.license ?? 'unknown'})`;
  notices.push(`${pj.name}@${pj.version} (${typeof pj.license === 'string' ? pj.license : (pj.license?.type ?? 'see below')})\n${'-'.repeat(72)}\n${text}\n`);
}
writeFileSync(
  join(out, 'THIRD-PARTY-NOTICES.txt'),
  `rs-reconcile ${pkg.version} bundles the following packages (${notices.length}), under their own licenses.\n\n${notices.join('\n\n')}`,
);

const total = Object.values(outputs).reduce((a, o) => a + o.bytes, 0);
const count = Object.keys(outputs).length;
if (!argv.includes('--quiet')) {
  console.log(`bundled ${entries.length} commands into ${relative(root, out)}/ (${count} files, ${(total / 1024).toFixed(0)} KiB)`);
}
