// Every command's module, loaded on demand (in main.cjs esbuild makes each a lazily evaluated
// part); the hot commands also get a file of their own with only their module (scripts/
// single-file.mjs, SPLIT). A command missing here is run by oclif; a test checks none is missing.
import type { CommandLoaders } from './dispatch.js';

export const COMMANDS: CommandLoaders = {
  completion: () => import('../commands/completion.js'),
  diff: () => import('../commands/diff.js'),
  explain: () => import('../commands/explain.js'),
  history: () => import('../commands/history.js'),
  reconcile: () => import('../commands/reconcile.js'),
  record: () => import('../commands/record.js'),
  run: () => import('../commands/run.js'),
  sandbox: () => import('../commands/sandbox.js'),
  version: () => import('../commands/version.js'),
  watch: () => import('../commands/watch.js'),
};
