import { BaseCommand } from '../cli/base.js';
import { outputFlag } from '../cli/flags.js';
import { NEWEST_VERSION, OLDEST_MINOR } from '../core/versions.js';
import { renderOutput } from '../render/formats.js';

export default class Version extends BaseCommand {
  static override summary = 'Print the version of rs-reconcile, Node.js, and the upstream controller behaviour it follows';
  static override flags = { ...outputFlag(['json', 'yaml']) };

  async run(): Promise<void> {
    const { flags } = await this.parse(Version);
    const info = {
      rsReconcile: this.config.version,
      node: process.version,
      controllerBehaviour: { newest: NEWEST_VERSION, oldest: `1.${OLDEST_MINOR}`, source: 'kubernetes/kubernetes pkg/controller/replicaset' },
    };
    await this.printChunks(
      renderOutput(flags.output, {
        document: () => info,
        human: () => [
          `rs-reconcile ${info.rsReconcile}\nNode.js ${info.node}\nReplicaSet controller behaviour: upstream Kubernetes 1.${OLDEST_MINOR}–${NEWEST_VERSION} (default ${NEWEST_VERSION} offline, the server's version live)`,
        ],
      }),
    );
  }
}
