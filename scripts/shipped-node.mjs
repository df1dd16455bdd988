// The Node.js the single executables embed, for CI (.ci/run): `node scripts/shipped-node.mjs`
// prints the path of that Node.js for this machine: the machine's own when it is that version,
// else the official binary from npm's node-linux-<arch> package (scripts/sea.mjs SEA_TARGETS),
// fetched with `npm pack` into .ci/cache/ (gitignored) once and reused. scripts/test.mjs runs
// SHIPPED_NODE_TESTS on it when RS_TEST_SHIPPED_NODE names it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEA_TARGETS, nodeBinary } from './sea.mjs';

/**
 * The end-to-end tests that run every command through the built CLI (diff, explain, reconcile,
 * run, watch, history, record, sandbox, version, completion), run again on the Node.js the single
 * executables embed. Small on purpose (a minute or two): the whole suite runs on the oldest
 * Node.js supported.
 */
export const SHIPPED_NODE_TESTS = [
  'test/e2e/examples.test.ts',
  'test/e2e/kubectl-habits.test.ts',
  'test/e2e/record.test.ts',
  'test/e2e/sandbox-command.test.ts',
  'test/e2e/version.test.ts',
  'test/packaging/completion.test.ts',
  'test/packaging/runtime.test.ts',
];

/** The SEA target of this machine's platform (linux only: CI's). */
export function shippedTarget(platform = process.platform, arch = process.arch) {
  const key = platform === 'linux' && (arch === 'x64' || arch === 'arm64') ? `linux/${arch === 'x64' ? 'amd64' : 'arm64'}` : null;
  if (!key) throw new Error(`shipped-node: no single executable is built for ${platform}-${arch} (linux x64 and arm64 only)`);
  return SEA_TARGETS[key];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const t = shippedTarget();
    const path = process.version === `v${t.version}` ? process.execPath : nodeBinary(root, t.pkg, t.version, t.bin, join(root, '.ci', 'cache'));
    console.log(path);
  } catch (e) {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
