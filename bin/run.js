#!/usr/bin/env node
// The checkout's `node bin/run.js …` (README, tests): the same start as npm's bins, bin/run.cjs.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./run.cjs');
