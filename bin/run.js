#!/usr/bin/env node
// kubectl-rs_reconcile / rs-reconcile: oclif loads only the command that runs (manifest-driven).
import { execute } from '@oclif/core';

await execute({ dir: import.meta.url });
