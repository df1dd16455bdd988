#!/usr/bin/env node
// kubectl_complete-rs_reconcile: kubectl (1.26 and newer) runs this executable, found on PATH, to
// complete "kubectl rs-reconcile ...". It passes the words after "rs-reconcile" (the last one is
// the word being completed) and reads cobra's format back: `completion __complete` answers it.
process.argv.splice(2, 0, 'completion', '__complete', '--');
await import('./run.js');
