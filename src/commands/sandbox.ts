import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';

export default class Sandbox extends BaseCommand {
  static override summary = 'Start the embedded Kubernetes API server (in memory, 127.0.0.1) to try rs-reconcile without a cluster';
  static override description = `A faithful in-memory subset of kube-apiserver (namespaces, pods, nodes, events, replicasets,
replicationcontrollers, leases) with a simulated scheduler and kubelet. It writes a kubeconfig,
prints the line to export it, and runs until Ctrl-C. kubectl and every rs-reconcile command
work against it.`;
  static override examples = [
    { description: 'A sandbox with 3 fake nodes, seeded with an example', command: '<%= config.bin %> sandbox --nodes 3 --seed examples/drifted-replicaset.yaml' },
    { description: 'Then, in another shell', command: 'export KUBECONFIG=$PWD/sandbox.kubeconfig\nkubectl get rs,pods -A\n<%= config.bin %> reconcile -n shop --yes' },
  ];
  static override flags = {
    port: Flags.integer({ description: 'port on 127.0.0.1 (default: a free one)', min: 0, max: 65535 }),
    nodes: Flags.integer({ description: 'fake nodes for the simulated scheduler and kubelet (0: pods stay Pending)', min: 0, default: 3 }),
    seed: Flags.string({ description: 'objects to preload (YAML or JSON, as kubectl get -o yaml prints them); repeatable', multiple: true }),
    kubeconfig: Flags.string({ description: 'where to write the kubeconfig', default: 'sandbox.kubeconfig' }),
    'audit-log': Flags.string({ description: 'write every request as a JSON line to this file' }),
    'audit-max-entries': Flags.integer({ description: 'newest audit entries kept in memory for GET /sandbox/audit (the --audit-log file gets all)', min: 0, default: 100_000 }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Sandbox);
    const { runSandboxCli } = await import('../sandbox/cli.js');
    const ac = new AbortController();
    const stop = () => ac.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await runSandboxCli({ port: flags.port, nodes: flags.nodes, seedFiles: flags.seed, kubeconfigPath: flags.kubeconfig, auditLog: flags['audit-log'], auditMaxEntries: flags['audit-max-entries'], out: process.stdout, signal: ac.signal });
  }
}
