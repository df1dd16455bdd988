'use strict';
// Written by scripts/bundle.mjs (from scripts/start-template.cjs): bin/run.js requires this to run
// main.cjs, the single-file CLI, with a V8 code cache, so a start compiles next to nothing.
// Node >= 22.1 has its own (module.enableCompileCache); on Node 20 the cache is vm.Script's cached
// data. It is keyed by the bundle's hash, the command, the Node.js version and the architecture, kept beside
// the bundle, or, where the install folder is read-only, in $XDG_CACHE_HOME/rs-reconcile
// (~/.cache/rs-reconcile), or else in a folder of the user's own under the temporary folder.
// RS_RECONCILE_CACHE_DIR chooses the folder; RS_RECONCILE_NO_CODE_CACHE=1 turns the cache off.
// A cache V8 rejects (corrupt, another V8) is ignored and written again.
// The krew single executable's main script is this file too (SEA true, scripts/sea.mjs): main.cjs
// and heavy.cjs are then its assets, and the cache folder is beside the executable.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const HASH = '__RS_BUNDLE_HASH__';
const SEA = false;
const base = SEA ? path.dirname(process.execPath) : __dirname;
const file = path.join(base, 'main.cjs');
// the hot commands with a file of their own, main-<command>.cjs (scripts/single-file.mjs SPLIT)
const SPLIT = ['__RS_SPLIT__'];
/** The file that runs `argv`: its command's own, else main.cjs. */
const fileFor = (argv) => (SPLIT.includes(argv[0]) ? path.join(base, `main-${argv[0]}.cjs`) : file);
// one cache per command: a cache holds the functions the run that made it compiled, and one made
// by `version` lacks most of `diff`'s (diff -f: 1.67x → 1.54x of node -e 0 in CPU with its own)
const COMMAND = /^[a-z][a-z-]{0,30}$/.test(process.argv[2] ?? '') ? process.argv[2] : '_';

/** A file of the bundle as text: ASCII (scripts/single-file.mjs makes it so), so latin1 reads it one byte a character. */
function source(f) {
  if (SEA) return Buffer.from(require('node:sea').getRawAsset(path.basename(f))).toString('latin1');
  return fs.readFileSync(f, 'latin1');
}

/** Where the cache may be, in order: beside the bundle, then the user's cache folder. */
function cacheDirs() {
  if (process.env.RS_RECONCILE_CACHE_DIR) return [process.env.RS_RECONCILE_CACHE_DIR];
  const home = process.env.XDG_CACHE_HOME || (process.env.HOME ? path.join(process.env.HOME, '.cache') : '');
  const user = home ? path.join(home, 'rs-reconcile') : path.join(require('node:os').tmpdir(), `rs-reconcile-${process.getuid ? process.getuid() : 'user'}`);
  return [path.join(base, '.cache'), user];
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
      if (ownFolder(dir)) return { dir, data: fs.readFileSync(path.join(dir, name)) };
    } catch {
      // not there: the next folder
    }
  }
  return null;
}

function writeCache(name, data) {
  for (const dir of cacheDirs()) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!ownFolder(dir)) continue;
      const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, data, { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name)); // whole or not at all: a reader never sees half a cache
      // caches of an older bundle or Node.js are never read again: remove them (a new build's first runs)
      const own = name.split('-').slice(0, 1).join('-') + '-';
      for (const f of fs.readdirSync(dir))
        if (f.startsWith(own) && f.endsWith('.cache') && !f.includes(`-${HASH}-`)) fs.rmSync(path.join(dir, f), { force: true });
      return;
    } catch {
      // read-only or full: the next folder
    }
  }
}

/** Runs a CommonJS file of the bundle with its code cache; `req` is the require it is given. */
function run(file, req) {
  const vm = require('node:vm');
  const name = `${path.basename(file, '.cjs')}-${HASH}-${COMMAND}-${process.version}-${process.arch}.cache`;
  const cached = readCache(name);
  // the wrapper Node gives a CommonJS module
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source(file)}\n})`;
  const script = new vm.Script(wrapped, {
    filename: file,
    cachedData: cached ? cached.data : undefined,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cached || script.cachedDataRejected) {
    // after the run: the cache then holds the functions the command compiled, not only the top level
    process.once('exit', () => writeCache(name, script.createCachedData()));
  }
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, req, mod, file, path.dirname(file));
  return mod.exports;
}

/** Node.js >= 22.1 has its own code cache (module.enableCompileCache): enabled once, for every file. */
let nodeCache;
function usesNodeCache() {
  if (SEA || typeof Module.enableCompileCache !== 'function') return false;
  if (nodeCache === undefined) {
    nodeCache = true;
    // Node's own cache covers light.cjs, main.cjs and heavy.cjs alike (each required as usual)
    for (const dir of cacheDirs()) if (Module.enableCompileCache(dir).status !== Module.constants.compileCacheStatus.FAILED) break;
  }
  return true;
}

/** A file of the bundle with the code cache (or without, under RS_RECONCILE_NO_CODE_CACHE=1). */
function loadFile(f) {
  if ((!SEA && process.env.RS_RECONCILE_NO_CODE_CACHE === '1') || usesNodeCache()) return require(f);
  return run(f, Module.createRequire(f));
}

/**
 * light.cjs's answer to `argv` (help, the completion scripts, TAB on commands and flags: what the
 * manifest alone answers, src/main/light.ts), or null. It is a small part of main.cjs, so those
 * starts read and evaluate that part only; RS_RECONCILE_NO_LIGHT=1 skips it (the tests compare).
 */
function light(argv) {
  if (process.env.RS_RECONCILE_NO_LIGHT === '1') return null;
  // the forms it may answer (lightAnswer's first tests): other words do not pay for reading it
  if (!(argv[0] === '--help' || (argv.length === 2 && argv[1] === '--help') || argv[0] === 'completion')) return null;
  return loadFile(path.join(base, 'light.cjs')).answer(argv);
}

let main;
function load(argv) {
  if (main) return main;
  const f = fileFor(argv);
  if (!SEA && process.env.RS_RECONCILE_NO_CODE_CACHE === '1') return (main = require(f));
  // main.cjs requires heavy.cjs (the packages the hot commands never run) through this, when it needs it
  if (!usesNodeCache()) globalThis.__rsLoadHeavy = (heavy) => run(heavy, Module.createRequire(f));
  return (main = loadFile(f));
}

/** What bin/run.cjs calls: light.cjs's answer when it has one, else main.cjs's dispatch. */
const api = {
  run(argv) {
    const text = light(argv);
    if (text === null) return load(argv).run(argv);
    // as the dispatch does: a reader that goes away (`| head`) is not an error
    process.stdout.on('error', (err) => {
      if (err.code !== 'EPIPE') throw err;
    });
    process.stdout.write(text);
    return Promise.resolve(true);
  },
  fallback: (argv) => load(argv).fallback(argv),
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
