// The client's own versions as `version` prints them first and `--version` prints them alone: one
// format for both (kubectl prints one "Client Version" line in either place).

/** `rs-reconcile 0.1.0` and `Node.js v22.…`: the lines naming this client's versions. */
export function clientVersionLines(rsReconcile: string, node: string): string[] {
  return [`rs-reconcile ${rsReconcile}`, `Node.js ${node}`];
}
