// The name the user ran us by, for help and hints: "kubectl rs-reconcile" as a kubectl plugin,
// "rs-reconcile" otherwise. kubectl sets no variable telling a plugin it runs under kubectl: on
// Unix it execs the plugin file (argv[0], hence Node's argv[1], is the path of
// kubectl-rs_reconcile), elsewhere it starts it as a child. So: the krew launcher's
// RS_RECONCILE_INVOKED_AS, then the executable's name, then (when that says nothing, e.g. a
// Windows shim that runs bin/run.js) whether the parent process is kubectl.

import { readFileSync } from 'node:fs';

/** The parent process's command name (Linux /proc), or undefined where it cannot be known. */
function parentCommand(ppid: number = process.ppid): string | undefined {
  if (process.platform !== 'linux' || !ppid) return undefined;
  try {
    return readFileSync(`/proc/${ppid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** How the user called us: "kubectl rs-reconcile" as a kubectl plugin, else "rs-reconcile". */
export function displayName(
  argv1: string | undefined = process.argv[1],
  env: NodeJS.ProcessEnv = process.env,
  parent: () => string | undefined = parentCommand,
): string {
  const invoked = env.RS_RECONCILE_INVOKED_AS || (argv1 ? (argv1.split(/[\\/]/).pop() ?? '') : ''); // / or \ (Windows)
  const plugin = /^kubectl-(.+?)(\.m?js|\.cmd|\.exe|\.ps1)?$/i.exec(invoked);
  if (plugin) return `kubectl ${plugin[1].replace(/_/g, '-')}`;
  if (/^rs-reconcile(\.cmd|\.exe|\.ps1)?$/i.test(invoked)) return 'rs-reconcile';
  if (/^kubectl(\.exe)?$/i.test(parent() ?? '')) return 'kubectl rs-reconcile';
  return 'rs-reconcile';
}
