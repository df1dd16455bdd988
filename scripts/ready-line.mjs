// Waits for a child process to print its ready line (scripts/test.mjs: the sandbox's
// `export KUBECONFIG=…`), and gives up with a message when the child exits first or takes too long.

/**
 * @param {import('node:child_process').ChildProcess} child  with stdout piped
 * @param {{ pattern: RegExp, timeoutMs: number, describe?: () => string }} o  describe: more words
 *   for the message (e.g. the child's stderr)
 * @returns {Promise<string>} the output up to and including the ready line
 */
export function waitForReadyLine(child, { pattern, timeoutMs, describe = () => '' }) {
  return new Promise((resolve, reject) => {
    let out = '';
    const more = () => {
      const d = describe().trim();
      return d ? `: ${d}` : '';
    };
    const done = (fn, v) => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      fn(v);
    };
    const onData = (d) => {
      out += d;
      if (pattern.test(out)) done(resolve, out);
    };
    const onExit = (code, signal) => done(reject, new Error(`exited (${signal ?? `status ${code}`}) before it was ready${more()}`));
    const onError = (e) => done(reject, new Error(`could not start: ${e.message}`));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(reject, new Error(`not ready within ${timeoutMs / 1000} s${more()}`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    child.on('exit', onExit);
    child.on('error', onError);
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
  });
}
