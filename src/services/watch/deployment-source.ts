// The Deployments of a live watch: an informer of deployments.apps, the watch's own (in every mode:
// the ReplicaSet controller that --reconcile runs has none). Deployments are optional: a cluster
// that refuses their list (403) or does not serve them (404) still gets its ReplicaSets watched:
// the first list refused settles the source as unknown (403) or empty (404), and it stops there.

import type { Connection } from '../../cluster/kubeconfig.js';
import type { Deployment } from '../../core/types.js';
import type { InformerLike } from './contract.js';

/** What the first list of deployments.apps came to. */
export type DeploymentsKnown = 'listing' | 'synced' | 'forbidden' | 'not-served';

export const DEPLOYMENTS_FORBIDDEN =
  "deployments: unknown (listing deployments.apps is forbidden): the watch shows nothing of the deployment controller's next sync; the ReplicaSets are watched as usual";

/** Whether an informer's error is the API server refusing the list for good: 403, or 404 (the resource is not served). */
function refusal(e: Error): 'forbidden' | 'not-served' | null {
  const status = (e as { status?: unknown }).status;
  const reason = (e as { reason?: unknown }).reason;
  if (reason === 'forbidden' || status === 403) return 'forbidden';
  if (reason === 'not-found' || status === 404) return 'not-served';
  return null;
}

export class DeploymentSource {
  private known: DeploymentsKnown = 'listing';
  private readonly stop = new AbortController();
  private settle: () => void = () => {};
  private readonly settled = new Promise<void>((resolve) => (this.settle = resolve));
  readonly informer: InformerLike<Deployment>;

  /**
   * `make` builds the informer with the error handler given (the real one, or a test's);
   * `onError` gets every other error, `warn` the one line saying the Deployments are unknown.
   */
  constructor(
    make: (onError: (e: Error) => void) => InformerLike<Deployment>,
    private readonly onError: (e: Error) => void,
    private readonly warn: (text: string) => void,
  ) {
    this.informer = make((e) => this.failed(e));
  }

  private failed(e: Error): void {
    const refused = this.known === 'listing' ? refusal(e) : null;
    if (!refused) {
      this.onError(e);
      return;
    }
    this.known = refused;
    if (refused === 'forbidden') this.warn(DEPLOYMENTS_FORBIDDEN);
    this.stop.abort();
    this.settle();
  }

  /** Runs the informer until `signal` aborts (or its list is refused). */
  run(signal: AbortSignal): Promise<void> {
    return this.informer.run(AbortSignal.any([signal, this.stop.signal]));
  }

  /** Resolves once the Deployments are listed, or their list refused; rejects when `signal` aborts. */
  async waitForSync(signal: AbortSignal): Promise<void> {
    await Promise.race([
      this.informer.waitForSync(AbortSignal.any([signal, this.stop.signal])).catch((e) => (this.stop.signal.aborted ? undefined : Promise.reject(e))),
      this.settled,
    ]);
    if (this.informer.hasSynced()) this.known = 'synced';
  }

  /** The Deployments as the snapshot holds them: the cache once listed, null when forbidden, none otherwise. */
  list(): Deployment[] | null {
    if (this.known === 'forbidden') return null;
    return this.informer.hasSynced() ? this.informer.cache.list() : [];
  }
}

/** The watch's informer of deployments.apps. */
export async function createDeploymentSource(
  conn: Connection,
  namespace: string | null,
  onError: (e: Error) => void,
  warn: (text: string) => void,
): Promise<DeploymentSource> {
  const { Informer } = await import('../../cluster/informer.js');
  return new DeploymentSource(
    (handler) =>
      new Informer<Deployment>({ conn, resource: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' }, namespace, onError: handler }),
    onError,
    warn,
  );
}
