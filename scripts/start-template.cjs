'use strict';
// Written by scripts/bundle.mjs (from scripts/start-template.cjs) as dist/bundle/boot.cjs, which
// bin/run.cjs requires, and as dist/bundle/sea-start.cjs (SEA true), the single executable's main
// script: one boot for both. It runs the words from light.cjs (what the manifest alone answers), a
// hot command's own file (main-<command>.cjs) or main.cjs, with a code cache:
// - Node.js >= 22.1 (module.enableCompileCache): the runtime's own cache, the only one, for every
//   file of the bundle, required as usual;
// - Node.js 20, which has none, and the single executable, whose files are assets rather than
//   files: vm.Script's cached data (the block "Node.js 20 and the single executable" below; it
//   goes when engines moves to >= 22.1 and the executable's files are files).
// Either is kept beside the bundle, or, where the install folder cannot take it, in
// $XDG_CACHE_HOME/rs-reconcile (~/.cache/rs-reconcile), or in a folder of the user's own under the
// temporary folder. RS_RECONCILE_CACHE_DIR chooses the folder; RS_RECONCILE_NO_CODE_CACHE=1 turns
// the cache off (not in the single executable).
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const HASH = '__RS_BUNDLE_HASH__';
const SEA = false;
const base = SEA ? path.dirname(process.execPath) : __dirname;
// the hot commands with a file of their own, main-<command>.cjs (scripts/single-file.mjs SPLIT)
const SPLIT = ['__RS_SPLIT__'];
/** The file that runs `argv`: its command's own, else main.cjs. */
const fileFor = (argv) => path.join(base, SPLIT.includes(argv[0]) ? `main-${argv[0]}.cjs` : 'main.cjs');

/** Where the cache may be, in order: beside the bundle, then the user's cache folder. */
function cacheDirs() {
  if (process.env.RS_RECONCILE_CACHE_DIR) return [process.env.RS_RECONCILE_CACHE_DIR];
  const home = process.env.XDG_CACHE_HOME || (process.env.HOME ? path.join(process.env.HOME, '.cache') : '');
  const user = home ? path.join(home, 'rs-reconcile') : path.join(require('node:os').tmpdir(), `rs-reconcile-${process.getuid ? process.getuid() : 'user'}`);
  return [path.join(base, '.cache'), user];
}

const noCache = !SEA && process.env.RS_RECONCILE_NO_CODE_CACHE === '1';
const runtimeCache = !SEA && typeof Module.enableCompileCache === 'function';
if (runtimeCache && !noCache) {
  for (const dir of cacheDirs()) if (Module.enableCompileCache(dir).status !== Module.constants.compileCacheStatus.FAILED) break;
}

// ---- Node.js 20 and the single executable: vm.Script's cached data ----
// Made after the run (so it holds the functions the command compiled, not only the top level),
// written at exit whole or not at all, one per command and form (a cache made by `version` lacks
// most of `diff`'s, one made by `diff -f x.json -o json` its YAML reader and its table). A run that
// ends in an error (exit status 2) writes none: it stopped before most of its command's code ran,
// and its cache would serve every later run. Its name carries the file, the bundle's hash, the
// command and form, the Node.js version and the architecture. A folder that other users can write,
// or that belongs to another user, is never read (cached code is code); a cache V8 refuses
// (corrupt, another V8) is ignored and written again.
const COMMAND = /^[a-z][a-z-]{0,30}$/.test(process.argv[2] ?? '') ? process.argv[2] : '_';

/**
 * What of a command's words decides which of its code runs: the kind of input of its first -f
 * (`.yaml`, `.json`, `.ndjson`, `.stdin`, `.file`; none for the cluster) and its -o
 * (`.o-json`; none for the default). Other words only choose data. A word it misreads only
 * chooses another cache.
 */
function formOf(words) {
  let input = '';
  let output = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--') break;
    const flag = /^(-f|--filename|-o|--output)(?:=(.*))?$/.exec(w) ?? /^(-[fo])(.+)$/.exec(w);
    if (!flag) continue;
    const value = flag[2] ?? words[++i] ?? '';
    if (flag[1] === '-f' || flag[1] === '--filename') {
      if (!input)
        input =
          value === '-'
            ? 'stdin'
            : (/\.(json|ya?ml|ndjson|jsonl)$/i.exec(value)?.[1].toLowerCase().replace('yml', 'yaml').replace('jsonl', 'ndjson') ?? 'file');
    } else {
      const name = value.split('=')[0].toLowerCase();
      output = /^[a-z][a-z-]{0,20}$/.test(name) ? name : 'other';
    }
  }
  return `${input && `.${input}`}${output && `.o-${output}`}`;
}

/** A file of the bundle as text: ASCII (scripts/single-file.mjs makes it so), so latin1 reads it one byte a character. */
function source(f) {
  if (SEA) return Buffer.from(require('node:sea').getRawAsset(path.basename(f))).toString('latin1');
  return fs.readFileSync(f, 'latin1');
}

/** A folder only this user can write (a shared temporary folder must not feed us code). */
function ownFolder(dir) {
  try {
    const s = fs.statSync(dir);
    return s.isDirectory() && (!process.getuid || (s.uid === process.getuid() && (s.mode & 0o022) === 0));
  } catch {
    return false;
  }
}

function readCache(name) {
  for (const dir of cacheDirs()) {
    try {
      if (ownFolder(dir)) return fs.readFileSync(path.join(dir, name));
    } catch {
      // not there: the next folder
    }
  }
  return undefined;
}

function writeCache(name, data) {
  for (const dir of cacheDirs()) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!ownFolder(dir)) continue;
      const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, data, { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name)); // whole or not at all: a reader never sees half a cache
      // caches of an older bundle are never read again: remove them (a new build's first runs)
      const own = `${name.split('-')[0]}-`;
      for (const f of fs.readdirSync(dir))
        if (f.startsWith(own) && f.endsWith('.cache') && !f.includes(`-${HASH}-`)) fs.rmSync(path.join(dir, f), { force: true });
      return;
    } catch {
      // read-only or full: the next folder
    }
  }
}

/** Runs a CommonJS file of the bundle as Node.js would, compiled with its cached data. */
function runCached(file) {
  const vm = require('node:vm');
  const name = `${path.basename(file, '.cjs')}-${HASH}-${COMMAND}${formOf(process.argv.slice(3))}-${process.version}-${process.arch}.cache`;
  const cachedData = readCache(name);
  // the wrapper Node gives a CommonJS module
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source(file)}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  if (!cachedData || script.cachedDataRejected) process.once('exit', (status) => status !== 2 && writeCache(name, script.createCachedData()));
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return mod.exports;
}
// ---- end of Node.js 20 and the single executable ----

/** A file of the bundle, evaluated once; main.cjs requires heavy.cjs through this (__rsLoadHeavy). */
const loaded = new Map();
function load(f) {
  if (!loaded.has(f)) loaded.set(f, runtimeCache || noCache ? require(f) : runCached(f));
  return loaded.get(f);
}
globalThis.__rsLoadHeavy = load;

/**
 * light.cjs's answer to `argv` (help, the completion scripts, TAB on commands and flags: what the
 * manifest alone answers, src/main/light.ts), or null. RS_RECONCILE_NO_LIGHT=1 skips it (the
 * tests compare it with main.cjs's answer).
 */
function light(argv) {
  if (process.env.RS_RECONCILE_NO_LIGHT === '1') return null;
  // the forms it may answer (lightAnswer's first tests): other words do not pay for reading it
  if (!(argv[0] === '--help' || (argv.length === 2 && argv[1] === '--help') || argv[0] === 'completion')) return null;
  return load(path.join(base, 'light.cjs')).answer(argv);
}

/** What bin/run.cjs calls: light.cjs's answer when it has one, else the dispatch (false: oclif's to answer). */
const api = {
  run(argv) {
    const text = light(argv);
    if (text === null) return load(fileFor(argv)).run(argv);
    // as the dispatch does: a reader that goes away (`| head`) is not an error
    process.stdout.on('error', (err) => {
      if (err.code !== 'EPIPE') throw err;
    });
    process.stdout.write(text);
    return Promise.resolve(true);
  },
  fallback: (argv) => load(fileFor(argv)).fallback(argv),
};

if (SEA) {
  // what the dispatch leaves to oclif elsewhere, the executable answers itself (src/main/sea.ts)
  const argv = process.argv.slice(2);
  api.run(argv).then((handled) => {
    if (handled) return;
    const r = api.fallback(argv);
    if (r.stdout) process.stdout.write(r.stdout);
    if (r.stderr) process.stderr.write(r.stderr);
    process.exitCode = r.status;
  });
} else {
  module.exports = api;
}
