import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { behaviourFlags, behaviourOptions, connection, connectionFlags, outputFlag } from '../cli/flags.js';
import { renderOutput } from '../render/formats.js';
import { versionReport, versionText } from '../services/version-service.js';

export default class Version extends BaseCommand {
  static override summary = 'Print the version of rs-reconcile, Node.js, the server, and the upstream controller behaviour emulated';
  static override description = `With a cluster configured (kubeconfig, --context…) the server's version is read (at most
--request-timeout, default 5s) and the controller behaviour shown is that version's, as diff
and explain would emulate it: the feature gates and the changes between releases, each on or off.
An unreachable or missing cluster is reported on the Server Version line, and the behaviour is
the newest; the exit status stays 0.`;
  static override examples = [
    { description: 'The versions and the behaviour emulated against the current context', command: '<%= config.bin %> version' },
    {
      description: 'What diff --kube-version 1.32 would emulate, as JSON, without asking a server',
      command: '<%= config.bin %> version --client --kube-version 1.32 -o json',
    },
  ];
  static override flags = {
    ...outputFlag(['document', 'human']),
    client: Flags.boolean({ description: 'only the client: do not ask the server for its version', default: false }),
    'kube-version': behaviourFlags['kube-version'],
    'feature-gates': behaviourFlags['feature-gates'],
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Version);
    const report = await versionReport(this.config.version, {
      client: flags.client,
      connection: connection(flags),
      ...behaviourOptions(flags),
    });
    await this.printChunks(renderOutput(flags.output, { document: () => report, human: () => [versionText(report)] }));
  }
}
