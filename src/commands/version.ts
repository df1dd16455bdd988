import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { NEWEST_VERSION, OLDEST_MINOR } from '../core/versions.js';

export default class Version extends BaseCommand {
  static override summary = 'Print the version of rs-reconcile, Node.js, and the upstream controller behaviour it follows';
  static override flags = { output: Flags.string({ char: 'o', description: 'output format', options: ['json', 'yaml'] }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(Version);
    const info = {
      rsReconcile: this.config.version,
      node: process.version,
      controllerBehaviour: { newest: NEWEST_VERSION, oldest: `1.${OLDEST_MINOR}`, source: 'kubernetes/kubernetes pkg/controller/replicaset' },
    };
    if (flags.output === 'json') this.print(JSON.stringify(info, null, 2));
    else if (flags.output === 'yaml') this.print((await import('yaml')).stringify(info));
    else
      this.print(
        `rs-reconcile ${info.rsReconcile}\nNode.js ${info.node}\nReplicaSet controller behaviour: upstream Kubernetes 1.${OLDEST_MINOR}–${NEWEST_VERSION} (default ${NEWEST_VERSION} offline, the server's version live)`,
      );
  }
}
