// Flags shared by the commands, with kubectl's names and meanings.

import { Flags } from '@oclif/core';
import { DEFAULT_MAX_INPUT_BYTES, formatBytes } from '../input/read-input.js';
import { colorLevel, makeChalk, type ChalkInstance } from '../render/color.js';
import { formatsFor, type ViewName } from '../render/formats.js';
import { terminalStream } from './stdio.js';
import type { BehaviourOptions } from '../services/behaviour.js';
import type { ModelOptions, SourceOptions } from '../services/plan-service.js';

/**
 * kubectl's connection flags (cli-runtime's ConfigFlags, as `kubectl options` lists them), with
 * clientcmd's precedence: each one set overrides that field of the kubeconfig's selected context,
 * cluster or user (src/cluster/kubeconfig.ts applies them).
 */
/**
 * A flag given once per value, as cobra's StringArray and StringSlice are: `-f a -f b`. Each
 * occurrence takes the one word after it, so the words after that are arguments again
 * (`-f snap.yaml web`), as kubectl reads them.
 */
export const repeatable = { multiple: true, multipleNonGreedy: true } as const;

export const connectionFlags = {
  kubeconfig: Flags.string({ description: 'path to the kubeconfig file to use (default: KUBECONFIG, then ~/.kube/config)', helpGroup: 'CLUSTER' }),
  context: Flags.string({ description: 'the name of the kubeconfig context to use', helpGroup: 'CLUSTER' }),
  cluster: Flags.string({ description: 'the name of the kubeconfig cluster to use', helpGroup: 'CLUSTER' }),
  user: Flags.string({ description: 'the name of the kubeconfig user to use', helpGroup: 'CLUSTER' }),
  server: Flags.string({ char: 's', description: 'the address and port of the Kubernetes API server', helpGroup: 'CLUSTER' }),
  'tls-server-name': Flags.string({
    description: 'server name to use for server certificate validation (default: the host name used to contact the server)',
    helpGroup: 'CLUSTER',
  }),
  'certificate-authority': Flags.string({ description: 'path to a cert file for the certificate authority', helpGroup: 'CLUSTER' }),
  'insecure-skip-tls-verify': Flags.boolean({
    description: "the server's certificate is not checked for validity (insecure HTTPS connections)",
    helpGroup: 'CLUSTER',
  }),
  'client-certificate': Flags.string({ description: 'path to a client certificate file for TLS', helpGroup: 'CLUSTER' }),
  'client-key': Flags.string({ description: 'path to a client key file for TLS', helpGroup: 'CLUSTER' }),
  token: Flags.string({ description: 'bearer token for authentication to the API server', helpGroup: 'CLUSTER' }),
  username: Flags.string({ description: 'username for basic authentication to the API server', helpGroup: 'CLUSTER' }),
  password: Flags.string({ description: 'password for basic authentication to the API server', helpGroup: 'CLUSTER' }),
  as: Flags.string({ description: 'username to impersonate for the operation', helpGroup: 'CLUSTER' }),
  'as-group': Flags.string({ description: 'group to impersonate for the operation (repeatable)', ...repeatable, helpGroup: 'CLUSTER' }),
  'as-uid': Flags.string({ description: 'UID to impersonate for the operation', helpGroup: 'CLUSTER' }),
  'request-timeout': Flags.string({ description: 'how long to wait for a single server request (e.g. 1s, 2m, 0 = no timeout)', helpGroup: 'CLUSTER' }),
  'disable-compression': Flags.boolean({ description: 'opt out of response compression for all requests to the server', helpGroup: 'CLUSTER' }),
};

/** Which controllers: the namespace scope and the label selector (every command that reads them). */
export const namespaceFlags = {
  namespace: Flags.string({
    char: 'n',
    description: 'the namespace scope (default: the context namespace; reading files (-f, --audit-log, --recording): every namespace in them)',
  }),
  'all-namespaces': Flags.boolean({ char: 'A', description: 'every namespace', default: false }),
  selector: Flags.string({ char: 'l', description: 'label selector choosing the controllers (e.g. app=web,tier in (a,b))' }),
};

/** -n and -A without -l: commands that follow writes rather than choose controllers (history, record). */
export const namespaceScopeFlags = (({ selector: _selector, ...rest }) => rest)(namespaceFlags);

/** Where the objects come from: snapshot files (or the live cluster without -f), and the scope. */
export const scopeFlags = {
  filename: Flags.string({
    char: 'f',
    description:
      'snapshot file, directory or - for stdin (kubectl get rs,rc,pods -o yaml|json); repeatable, or a comma list. Without it, the live cluster is read',
    ...repeatable,
    // kubectl's -f is a StringSlice: -f a,b is -f a -f b
    delimiter: ',',
  }),
  ...namespaceFlags,
  'max-input-size': Flags.string({
    description: 'with -f: the most bytes read from one file or stdin, as a quantity (e.g. 512Mi, 2Gi, 100M)',
    default: formatBytes(DEFAULT_MAX_INPUT_BYTES),
  }),
};

/** The scope of a command about one named object (explain): no -l, the NAME chooses. */
export const oneTargetScopeFlags = (({ selector: _selector, ...rest }) => rest)(scopeFlags);

/** The upstream controller emulated: its version, its feature gates, its burst. */
export const behaviourFlags = {
  'kube-version': Flags.string({ description: "emulate the controller of this Kubernetes minor version (default: the server's; offline the newest)" }),
  'feature-gates': Flags.string({
    description:
      'feature gates as kube-controller-manager of the emulated version takes them, e.g. PodDeletionCost=false,AllBeta=false (gates of other controllers accepted with a note, unknown ones refused)',
  }),
  // Upstream's burstReplicas is the constant 500, never 0. With 0 every sync would create and
  // delete nothing: `run` would never converge, and `diff` would call a ReplicaSet short of pods
  // "in sync" (its status unchanged). So at least 1, in every command.
  'burst-replicas': Flags.integer({ description: 'most pods one sync creates or deletes (upstream: 500)', min: 1, default: 500 }),
};

/** As if: another time, another scale. */
export const whatIfFlags = {
  now: Flags.string({ description: 'evaluation time (RFC 3339), e.g. the time a snapshot was taken; default: now' }),
  replicas: Flags.integer({ description: 'as if the controller(s) were scaled to N: which pods would be created or deleted', min: 0 }),
};

/** How a command that writes talks to the API server and how many syncs it runs at once. */
export const writerFlags = {
  workers: Flags.integer({ description: "syncs run at once (upstream's --concurrent-replicaset-syncs and --concurrent-rc-syncs)", default: 5, min: 1 }),
  'kube-api-qps': Flags.integer({ description: 'client-side limit of requests per second to the API server', default: 50, min: 1 }),
  'kube-api-burst': Flags.integer({ description: 'client-side burst of requests to the API server', default: 100, min: 1 }),
};

/** How long a command waits for every controller to be in sync: reconcile's follow-up syncs, run --until-synced. */
export const syncedTimeoutFlag = {
  timeout: Flags.string({
    description: 'how long to wait for every controller to be in sync before giving up with exit status 1 (run: with --until-synced), e.g. 30s, 2m',
    default: '5m',
  }),
};

export const forceFlag = {
  force: Flags.boolean({ description: 'start even when an upstream ReplicaSet controller is active in scope', default: false }),
};

/** The same flags, shown under one heading of --help (WHAT-IF, RECONCILE, CLUSTER). */
export function inHelpGroup<T extends Record<string, object>>(helpGroup: string, flags: T): T {
  return Object.fromEntries(Object.entries(flags).map(([name, flag]) => [name, { ...flag, helpGroup }])) as T;
}

/** What diff and explain model: a time, a scale, the controller emulated. */
export const modelFlags = inHelpGroup('WHAT-IF', { ...whatIfFlags, ...behaviourFlags });

/** -o with every format the command's views can draw (src/render/formats.ts), in the table's order. */
export function outputFlag(views: readonly ViewName[], description = 'output format') {
  return { output: Flags.string({ char: 'o', description, options: formatsFor(views) }) };
}

/** history and explain: the output (-o html: the timeline page) written to a file. */
export const outputFileFlag = {
  'output-file': Flags.string({ description: 'write the output to FILE instead of stdout (-o html: the page to open in a browser)' }),
};

export const noHeadersFlag = {
  'no-headers': Flags.boolean({ description: 'do not print table headers', default: false }),
};

// The parsed flags as the services take them: each mapping written once, here, next to the
// flags it reads (a command passes what it parsed; the flags it does not declare read as unset).

export interface ConnectionFlagValues {
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  user?: string;
  server?: string;
  'tls-server-name'?: string;
  'certificate-authority'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'client-certificate'?: string;
  'client-key'?: string;
  token?: string;
  username?: string;
  password?: string;
  as?: string;
  'as-group'?: string[];
  'as-uid'?: string;
  'request-timeout'?: string;
  'disable-compression'?: boolean;
}

/** The connection options of the connection flags (kubectl's names → the cluster adapter's). */
export function connection(flags: ConnectionFlagValues) {
  return {
    kubeconfig: flags.kubeconfig,
    context: flags.context,
    cluster: flags.cluster,
    user: flags.user,
    server: flags.server,
    tlsServerName: flags['tls-server-name'],
    certificateAuthority: flags['certificate-authority'],
    insecureSkipTlsVerify: flags['insecure-skip-tls-verify'],
    clientCertificate: flags['client-certificate'],
    clientKey: flags['client-key'],
    token: flags.token,
    username: flags.username,
    password: flags.password,
    as: flags.as,
    asGroups: flags['as-group'],
    asUid: flags['as-uid'],
    requestTimeout: flags['request-timeout'],
    disableCompression: flags['disable-compression'],
  };
}

export interface SourceFlagValues extends ConnectionFlagValues {
  filename?: string[];
  namespace?: string;
  'all-namespaces'?: boolean;
  selector?: string;
  'max-input-size'?: string;
}

/** Where the objects come from (scopeFlags and the connection flags): what the planner reads. */
export function sourceOptions(flags: SourceFlagValues): SourceOptions {
  return {
    filename: flags.filename,
    namespace: flags.namespace,
    allNamespaces: flags['all-namespaces'],
    selector: flags.selector,
    maxInputSize: flags['max-input-size'],
    connection: connection(flags),
  };
}

export interface ModelFlagValues {
  now?: string;
  replicas?: number;
  'kube-version'?: string;
  'feature-gates'?: string;
  'burst-replicas'?: number;
}

/** The controller emulated (--kube-version, --feature-gates), as every command that plans or explains takes it. */
export function behaviourOptions(flags: Pick<ModelFlagValues, 'kube-version' | 'feature-gates'>): BehaviourOptions {
  return { kubeVersion: flags['kube-version'], featureGates: flags['feature-gates'] };
}

/** What is modelled (whatIfFlags and behaviourFlags): the time, the scale, the controller emulated. */
export function modelOptions(flags: ModelFlagValues): ModelOptions {
  return { now: flags.now, replicas: flags.replicas, ...behaviourOptions(flags), burstReplicas: flags['burst-replicas'] };
}

/** How a command that writes paces its writes (writerFlags). */
export function writerOptions(flags: { workers: number; 'kube-api-qps': number; 'kube-api-burst': number }): { workers: number; qps: number; burst: number } {
  return { workers: flags.workers, qps: flags['kube-api-qps'], burst: flags['kube-api-burst'] };
}

/** A file or a pipe (src/cli/stdio.ts tells them without making process.stdout or process.stderr). */
const NO_TERMINAL = { isTTY: false };

/** The colours and the width of a human view. */
export interface OutputStyle {
  chalk: ChalkInstance;
  /** The terminal's columns; undefined when not a terminal (no width to fit). */
  width: number | undefined;
}

/**
 * How stdout draws: colours and the terminal's width on a terminal (NO_COLOR and FORCE_COLOR
 * respected); with --output-file, a file: neither.
 */
export function stdoutStyle(
  flags: { 'output-file'?: string } = {},
  out: { isTTY?: boolean; columns?: number } = terminalStream(1) ?? NO_TERMINAL,
  env: NodeJS.ProcessEnv = process.env,
): OutputStyle {
  const tty = flags['output-file'] === undefined && out.isTTY === true;
  return { chalk: makeChalk(colorLevel({ isTTY: tty }, env)), width: tty ? out.columns : undefined };
}

/** The colours of warnings on stderr (the overlap warnings before a plan). */
export function stderrChalk(err: { isTTY?: boolean } = terminalStream(2) ?? NO_TERMINAL, env: NodeJS.ProcessEnv = process.env): ChalkInstance {
  return makeChalk(colorLevel(err, env));
}
