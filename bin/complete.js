#!/usr/bin/env node
// The checkout's kubectl_complete-rs_reconcile: the same start as npm's, bin/complete.cjs.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./complete.cjs');
