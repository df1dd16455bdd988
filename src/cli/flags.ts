// Flags shared by the commands, with kubectl's names and meanings.

import { Flags } from '@oclif/core';
import { DEFAULT_MAX_INPUT_BYTES, formatBytes } from '../input/read-input.js';

export const connectionFlags = {
  kubeconfig: Flags.string({ description: 'path to the kubeconfig file to use (default: KUBECONFIG, then ~/.kube/config)', helpGroup: 'CLUSTER' }),
  context: Flags.string({ description: 'the name of the kubeconfig context to use', helpGroup: 'CLUSTER' }),
  cluster: Flags.string({ description: 'the name of the kubeconfig cluster to use', helpGroup: 'CLUSTER' }),
  user: Flags.string({ description: 'the name of the kubeconfig user to use', helpGroup: 'CLUSTER' }),
  as: Flags.string({ description: 'username to impersonate for the operation', helpGroup: 'CLUSTER' }),
  'as-group': Flags.string({ description: 'group to impersonate for the operation (repeatable)', multiple: true, helpGroup: 'CLUSTER' }),
  'request-timeout': Flags.string({ description: 'how long to wait for a single server request (e.g. 1s, 2m, 0 = no timeout)', helpGroup: 'CLUSTER' }),
};

export const scopeFlags = {
  filename: Flags.string({ char: 'f', description: 'snapshot file, directory or - for stdin (kubectl get rs,rc,pods -o yaml|json); repeatable. Without it, the live cluster is read', multiple: true }),
  namespace: Flags.string({ char: 'n', description: 'the namespace scope (default: the context namespace; with -f: every namespace in the files)' }),
  'all-namespaces': Flags.boolean({ char: 'A', description: 'plan controllers in all namespaces', default: false }),
  selector: Flags.string({ char: 'l', description: 'label selector choosing the controllers (e.g. app=web,tier in (a,b))' }),
  'max-input-size': Flags.string({ description: 'with -f: the most bytes read from one file or stdin, as a quantity (e.g. 512Mi, 2Gi, 100M)', default: formatBytes(DEFAULT_MAX_INPUT_BYTES) }),
};

export const modelFlags = {
  now: Flags.string({ description: 'evaluation time (RFC 3339), e.g. the time a snapshot was taken; default: now', helpGroup: 'WHAT-IF' }),
  replicas: Flags.integer({ description: 'as if the controller(s) were scaled to N: which pods would be created or deleted', min: 0, helpGroup: 'WHAT-IF' }),
  'kube-version': Flags.string({ description: 'emulate the controller of this Kubernetes minor version (default: the server\'s; offline the newest)', helpGroup: 'WHAT-IF' }),
  'feature-gates': Flags.string({ description: 'feature gates as kube-controller-manager takes them, e.g. PodDeletionCost=false,LogarithmicScaleDown=false', helpGroup: 'WHAT-IF' }),
  'burst-replicas': Flags.integer({ description: 'most pods one sync creates or deletes (upstream: 500)', min: 0, default: 500, helpGroup: 'WHAT-IF' }),
};

export const outputFlag = {
  output: Flags.string({ char: 'o', description: 'output format', options: ['json', 'yaml', 'wide', 'name'] }),
};

export const noHeadersFlag = {
  'no-headers': Flags.boolean({ description: 'do not print table headers', default: false }),
};

/** The connection options of the connection flags (kubectl's names → the cluster adapter's). */
export function connection(flags: { kubeconfig?: string; context?: string; cluster?: string; user?: string; as?: string; 'as-group'?: string[]; 'request-timeout'?: string }) {
  return { kubeconfig: flags.kubeconfig, context: flags.context, cluster: flags.cluster, user: flags.user, as: flags.as, asGroups: flags['as-group'], requestTimeout: flags['request-timeout'] };
}
