import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { repeatable } from '../cli/flags.js';

const DEPRECATED_KUBECONFIG = 'sandbox --kubeconfig is deprecated: it writes the file, where --kubeconfig everywhere else reads one; use --write-kubeconfig';

export default class Sandbox extends BaseCommand {
  static override summary = 'Start the embedded Kubernetes API server (in memory, 127.0.0.1) to try rs-reconcile without a cluster';
  static override description = `A faithful in-memory subset of kube-apiserver (namespaces, pods, nodes, events, replicasets,
deployments, replicationcontrollers, configmaps, secrets, serviceaccounts, leases). It merges its
cluster, user and context, all named rs-reconcile-NAME (--name), into a kubeconfig and makes that
context current: by default a new owner-only file $XDG_RUNTIME_DIR/rs-reconcile-NAME/kubeconfig
(or under the temp directory), or the file --write-kubeconfig names (an existing kubeconfig keeps
everything else it holds). It prints the line to export it and runs until Ctrl-C; when it stops
it takes out only its own entries again, restores the previous current-context, and deletes the
file only if it created it and nothing else is left in it, so nothing points at its dead port.
Without --name, a second sandbox is named sandbox-2, and so on. kubectl and every rs-reconcile
command work against it.

--seed takes files and directories (their *.yaml, *.yml and *.json, recursively), repeatable. An
object the API server would not store is skipped with a warning; the rest is loaded, and written
to the --audit-log as creates. An object whose owner is not in the seed is kept.

What runs besides the API server: with --nodes N, a simulated scheduler and kubelet; and, unless
--no-controllers, three of kube-controller-manager's controllers: serviceaccount (a "default"
ServiceAccount in every namespace about 1 s after it is created, which pods need: the API server
refuses a pod whose service account does not exist), namespace (a deleted namespace is emptied,
then removed) and garbage collector (dependents of an owner deleted in the sandbox go, e.g. a
ReplicaSet whose Deployment was deleted; an object whose owner was never in it stays). Seeded namespaces have their "default" ServiceAccount from the start.

What does not run: no Deployment controller (Deployments are stored and served, their
ReplicaSets are not created or scaled for them, and a create is answered with a warning saying
so; the ReplicaSets a Deployment owns are rs-reconcile's to handle: rs-reconcile run, or
reconcile deploy/NAME) and no ReplicaSet or ReplicationController controller (that is
rs-reconcile itself).`;
  static override examples = [
    {
      description: 'A sandbox with 3 fake nodes, seeded with an example',
      command: '<%= config.bin %> sandbox --nodes 3 --seed examples/drifted-replicaset.yaml',
    },
    {
      description: 'Then, in another shell',
      command: 'export KUBECONFIG=$XDG_RUNTIME_DIR/rs-reconcile-sandbox/kubeconfig\nkubectl get rs,pods -A\n<%= config.bin %> reconcile -n shop --yes',
    },
    {
      description: 'Every bundled example, and the sandbox merged into your kubeconfig as context rs-reconcile-demo (taken out again when it stops)',
      command: '<%= config.bin %> sandbox --seed examples/ --name demo --write-kubeconfig ~/.kube/config',
    },
  ];
  static override flags = {
    port: Flags.integer({ description: 'port on 127.0.0.1 (default: a free one)', min: 0, max: 65535 }),
    nodes: Flags.integer({ description: 'fake nodes for the simulated scheduler and kubelet (0: pods stay Pending)', min: 0, default: 3 }),
    seed: Flags.string({
      description: 'objects to preload: a file or a directory of *.yaml/*.yml/*.json (YAML or JSON, as kubectl get -o yaml prints them); repeatable',
      ...repeatable,
    }),
    name: Flags.string({
      description: "the sandbox's name: its cluster, user and context are rs-reconcile-NAME (default: sandbox, or sandbox-2, … when that one runs)",
    }),
    // Everywhere else --kubeconfig names a file to read; the old spelling still works, with a warning.
    'write-kubeconfig': Flags.string({
      description:
        'the kubeconfig to merge the sandbox into (made if absent; its entries taken out again when the sandbox stops; default: $XDG_RUNTIME_DIR or the temp directory, rs-reconcile-NAME/kubeconfig)',
      aliases: ['kubeconfig'],
    }),
    'audit-log': Flags.string({
      description:
        'write every request to this file as kube-apiserver does (audit.k8s.io/v1 Events, JSON lines; writes of pods, ReplicaSets, ReplicationControllers and Deployments with their bodies), for history --audit-log',
    }),
    'audit-max-entries': Flags.integer({
      description: 'newest audit entries kept in memory for GET /sandbox/audit (the --audit-log file gets all)',
      min: 0,
      default: 100_000,
    }),
    'no-controllers': Flags.boolean({
      description: 'a bare API server: without the serviceaccount, namespace and garbage collector controllers (pods need a ServiceAccount made by hand)',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Sandbox);
    if (this.argv.some((a) => /^--kubeconfig(=|$)/.test(a))) this.warning(DEPRECATED_KUBECONFIG);
    const { runSandboxCli } = await import('../sandbox/cli.js');
    const ac = new AbortController();
    let stoppedBy: NodeJS.Signals | null = null;
    const stop = (signal: NodeJS.Signals) => {
      stoppedBy = signal;
      ac.abort();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      await runSandboxCli({
        port: flags.port,
        nodes: flags.nodes,
        seedFiles: flags.seed,
        kubeconfigPath: flags['write-kubeconfig'],
        name: flags.name,
        auditLog: flags['audit-log'],
        auditMaxEntries: flags['audit-max-entries'],
        controllers: !flags['no-controllers'],
        out: process.stdout,
        signal: ac.signal,
      });
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    // A shell's convention for a program a signal ended: 128 + the signal's number.
    if (stoppedBy) process.exitCode = stoppedBy === 'SIGINT' ? 130 : 143;
  }
}
