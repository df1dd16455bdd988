#!/usr/bin/env node
'use strict';
// kubectl_complete-rs_reconcile (npm's bin; bin/complete.js in the checkout): kubectl (1.26 and
// newer) runs it to complete "kubectl rs-reconcile ...", passing the words after "rs-reconcile"
// (the last one is the word being completed); `completion __complete` answers in cobra's format.
process.argv.splice(2, 0, 'completion', '__complete', '--');
require('./run.cjs');
