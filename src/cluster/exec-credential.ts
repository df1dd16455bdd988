// client-go's exec credential plugins (client.authentication.k8s.io), run the way kubectl runs them.
//
// client-node's own ExecAuth is not used: its errors carry the plugin's stdout (V8's JSON.parse
// message quotes the text it failed on, token included), it checks neither kind nor apiVersion,
// sends no KUBERNETES_EXEC_INFO (plugins read it to pick the version they answer with), and runs
// a plugin whose credential has no expiry again before every request. Here, as in client-go:
// the plugin's stderr goes to the user's stderr, stdin only when interactive, the credential is
// cached until its expirationTimestamp (or until the server answers 401), and nothing the plugin
// printed on stdout ever appears in an error.

import { spawn, type StdioOptions } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { User } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { isObj } from '../core/guards.js';

const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;
const INTERACTIVE_MODES = ['Never', 'IfAvailable', 'Always'] as const;
/** An ExecCredential is a few KiB; more is not one, and is not kept in memory. */
const MAX_EXEC_OUTPUT = 1 << 20;

type InteractiveMode = (typeof INTERACTIVE_MODES)[number];

export interface ExecConfig {
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  apiVersion: string;
  interactiveMode: InteractiveMode;
  installHint: string;
  provideClusterInfo: boolean;
}

/** client.authentication.k8s.io Cluster: what a plugin with provideClusterInfo gets in KUBERNETES_EXEC_INFO. */
export interface ExecClusterInfo {
  server: string;
  'tls-server-name'?: string;
  'insecure-skip-tls-verify'?: boolean;
  /** Base64, as in the kubeconfig. */
  'certificate-authority-data'?: string;
  'proxy-url'?: string;
  'disable-compression'?: boolean;
  config?: unknown;
}

export interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Epoch milliseconds; null: valid until the server rejects it. */
  expiresAt: number | null;
}

export interface ExecIO {
  env: NodeJS.ProcessEnv;
  /** Whether stdin is a terminal (interactiveMode IfAvailable / Always). */
  stdinIsTTY: boolean;
  /** Where the plugin's stderr goes; 'inherit': this process's stderr, as client-go does. */
  stderr: 'inherit' | NodeJS.WritableStream;
  now: () => number;
}

export const defaultExecIO = (): ExecIO => ({
  env: process.env,
  stdinIsTTY: process.stdin.isTTY === true,
  stderr: 'inherit',
  now: Date.now,
});

type Obj = Record<string, unknown>;

/**
 * The exec block of a kubeconfig user, checked as clientcmd's validateAuthInfo and client-go's
 * newAuthenticator check it (their wording, prefixed with the user).
 */
export function parseExecConfig(raw: unknown, userName: string): ExecConfig {
  const fail = (why: string) => new UserError(`user "${userName}": ${why}`);
  if (!isObj(raw)) throw fail('exec must be a mapping');
  const command = typeof raw.command === 'string' ? raw.command : '';
  if (command === '') throw fail(`command must be specified for ${userName} to use exec authentication plugin`);
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  if (apiVersion === '') throw fail(`apiVersion must be specified for ${userName} to use exec authentication plugin`);
  if (!(EXEC_API_VERSIONS as readonly string[]).includes(apiVersion)) throw fail(`exec plugin: invalid apiVersion "${apiVersion}"`);

  let args: string[] = [];
  if (raw.args !== undefined && raw.args !== null) {
    if (!Array.isArray(raw.args)) throw fail('exec.args must be a list of strings');
    args = raw.args.map(String);
  }
  const env: { name: string; value: string }[] = [];
  if (raw.env !== undefined && raw.env !== null) {
    if (!Array.isArray(raw.env)) throw fail('exec.env must be a list of name/value pairs');
    for (const entry of raw.env) {
      const name = isObj(entry) && typeof entry.name === 'string' ? entry.name : '';
      if (name === '') throw fail(`env variable name must be specified for ${userName} to use exec authentication plugin`);
      env.push({ name, value: isObj(entry) && entry.value !== undefined && entry.value !== null ? String(entry.value) : '' });
    }
  }
  // clientcmd defaults interactiveMode to IfAvailable for v1beta1 only; v1 must say it.
  let mode = typeof raw.interactiveMode === 'string' ? raw.interactiveMode : '';
  if (mode === '' && apiVersion === 'client.authentication.k8s.io/v1beta1') mode = 'IfAvailable';
  if (mode === '') throw fail(`interactiveMode must be specified for ${userName} to use exec authentication plugin`);
  if (!(INTERACTIVE_MODES as readonly string[]).includes(mode)) throw fail(`invalid interactiveMode for ${userName}: "${mode}"`);

  return {
    command,
    args,
    env,
    apiVersion,
    interactiveMode: mode as InteractiveMode,
    installHint: typeof raw.installHint === 'string' ? raw.installHint : '',
    provideClusterInfo: raw.provideClusterInfo === true,
  };
}

/** A plugin failure. Its message names the command and never holds anything from its stdout. */
class ExecPluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecPluginError';
  }
}

/** An apiVersion is echoed only when it has the shape of one (group/version), never free text. */
const VERSION_SHAPE = /^[a-z0-9]([-a-z0-9.]{0,250}[a-z0-9])?\/v[0-9]+((alpha|beta)[0-9]+)?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** One line: control characters (ANSI escapes included) and line breaks become spaces. */
function flat(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Reads an ExecCredential from a plugin's stdout. Every message is worded from what was checked,
 * never from the text (which may hold a token even when malformed).
 */
function parseExecCredential(stdout: string, config: ExecConfig, now: number): ExecCredential {
  const plugin = `exec plugin "${config.command}"`;
  const fail = (why: string) => new ExecPluginError(why);
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    throw fail(`${plugin}: decoding stdout: the output is not a JSON object`);
  }
  if (!isObj(doc)) throw fail(`${plugin}: decoding stdout: the output is not a JSON object`);
  // client-go's decoder defaults a missing kind from the type it decodes into; any other kind is refused.
  if (doc.kind !== undefined && doc.kind !== 'ExecCredential') throw fail(`${plugin}: decoding stdout: the object's kind is not ExecCredential`);
  if (doc.apiVersion !== config.apiVersion) {
    const returned =
      typeof doc.apiVersion === 'string' && VERSION_SHAPE.test(doc.apiVersion)
        ? doc.apiVersion
        : doc.apiVersion === undefined
          ? '(none)'
          : '(not an API version)';
    throw fail(`${plugin} is configured to use API version ${config.apiVersion}, plugin returned version ${returned}`);
  }
  const status = doc.status;
  if (status === undefined || status === null) throw fail(`${plugin} didn't return a status field`);
  if (!isObj(status)) throw fail(`${plugin}: decoding stdout: status is not an object`);
  for (const key of ['token', 'clientCertificateData', 'clientKeyData', 'expirationTimestamp'] as const) {
    if (status[key] !== undefined && status[key] !== null && typeof status[key] !== 'string') {
      throw fail(`${plugin}: decoding stdout: status.${key} is not a string`);
    }
  }
  const token = (status.token as string | undefined) || undefined;
  const cert = (status.clientCertificateData as string | undefined) || undefined;
  const key = (status.clientKeyData as string | undefined) || undefined;
  if (!token && !cert && !key) throw fail(`${plugin} didn't return a token or cert/key pair`);
  if (!cert !== !key) throw fail(`${plugin} returned only certificate or key, not both`);
  if (cert && key) {
    let matches: boolean;
    try {
      matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(key));
    } catch {
      // OpenSSL's reasons are about the bytes; the bytes are the secret: say which part failed only.
      throw fail(`${plugin}: failed parsing client key/certificate: not a PEM certificate and private key`);
    }
    if (!matches) throw fail(`${plugin}: failed parsing client key/certificate: private key does not match public key`);
  }
  let expiresAt: number | null = null;
  const stamp = status.expirationTimestamp as string | undefined;
  if (stamp) {
    const ms = RFC3339.test(stamp) ? Date.parse(stamp) : NaN;
    if (Number.isNaN(ms)) throw fail(`${plugin}: decoding stdout: status.expirationTimestamp is not an RFC 3339 time`);
    if (ms <= now) throw fail(`${plugin} returned a credential that expired at ${new Date(ms).toISOString()}`);
    expiresAt = ms;
  }
  return { token, clientCertificateData: cert, clientKeyData: key, expiresAt };
}

/** Runs one plugin and keeps its credential while it is valid. */
export class ExecCredentialPlugin {
  private cached: ExecCredential | null = null;
  private pending: Promise<ExecCredential> | null = null;

  constructor(
    readonly config: ExecConfig,
    private readonly cluster: ExecClusterInfo,
    private readonly io: ExecIO = defaultExecIO(),
  ) {}

  /** The credential to use now: the cached one while valid, else the plugin's (one run at a time). */
  credential(): Promise<ExecCredential> {
    const c = this.cached;
    if (c && (c.expiresAt === null || this.io.now() < c.expiresAt)) return Promise.resolve(c);
    this.pending ??= this.run().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** The server answered 401: the next request runs the plugin again (client-go's maybeRefreshCreds). */
  invalidate(): void {
    this.cached = null;
  }

  private interactive(): boolean {
    switch (this.config.interactiveMode) {
      case 'Never':
        return false;
      case 'IfAvailable':
        return this.io.stdinIsTTY;
      case 'Always':
        if (!this.io.stdinIsTTY)
          throw new ExecPluginError(`exec plugin "${this.config.command}": standard input is not a terminal (interactiveMode is Always)`);
        return true;
    }
  }

  private execInfo(interactive: boolean): string {
    const spec: Obj = { interactive };
    if (this.config.provideClusterInfo) spec.cluster = this.cluster;
    return JSON.stringify({ kind: 'ExecCredential', apiVersion: this.config.apiVersion, spec });
  }

  private async run(): Promise<ExecCredential> {
    const interactive = this.interactive();
    const stdout = await this.spawn(interactive);
    const credential = parseExecCredential(stdout, this.config, this.io.now());
    this.cached = credential;
    return credential;
  }

  private spawn(interactive: boolean): Promise<string> {
    const { command, args } = this.config;
    const plugin = `exec plugin "${command}"`;
    const env: NodeJS.ProcessEnv = { ...this.io.env };
    for (const { name, value } of this.config.env) env[name] = value;
    env.KUBERNETES_EXEC_INFO = this.execInfo(interactive);
    const inheritErr = this.io.stderr === 'inherit';
    const stdio: StdioOptions = [interactive ? 'inherit' : 'ignore', 'pipe', inheritErr ? 'inherit' : 'pipe'];

    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let failure: Error | null = null;
      const child = spawn(command, args, { env, stdio, windowsHide: true });
      if (!inheritErr) child.stderr?.pipe(this.io.stderr as NodeJS.WritableStream, { end: false });
      child.stdout?.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_EXEC_OUTPUT) {
          failure ??= new ExecPluginError(`${plugin}: decoding stdout: the output exceeds ${MAX_EXEC_OUTPUT} bytes`);
          child.kill('SIGKILL');
          return;
        }
        chunks.push(chunk);
      });
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') {
          const hint = flat(this.config.installHint);
          failure ??= new ExecPluginError(`exec: executable ${command} not found${hint ? ` (${hint})` : ''}`);
        } else if (err.code === 'EACCES') {
          failure ??= new ExecPluginError(`exec: executable ${command} cannot be run: permission denied`);
        } else {
          failure ??= new ExecPluginError(`${plugin}: ${err.code ?? 'cannot be run'}`);
        }
        // A process that never started may emit no 'close'.
        if (child.pid === undefined) reject(failure);
      });
      child.on('close', (code, signal) => {
        if (failure) return reject(failure);
        if (signal) return reject(new ExecPluginError(`exec: executable ${command} was killed by signal ${signal}`));
        if (code !== 0) return reject(new ExecPluginError(`exec: executable ${command} failed with exit code ${code}`));
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
  }
}

/** The auth-provider name a user gets in the KubeConfig handed to client-node (its ExecAuth never sees the exec block). */
export const EXEC_PROVIDER = 'rs-reconcile/exec';

/** client-node's Authenticator (not exported from its index). */
interface AuthOptions {
  headers?: unknown;
  cert?: unknown;
  key?: unknown;
}

/** Applies the plugin's credential to a request: bearer token and/or client certificate. */
export class ExecAuthenticator {
  constructor(readonly plugin: ExecCredentialPlugin) {}

  isAuthProvider(user: User): boolean {
    return user.authProvider?.name === EXEC_PROVIDER;
  }

  async applyAuthentication(_user: User, opts: AuthOptions): Promise<void> {
    const credential = await this.plugin.credential();
    if (credential.clientCertificateData && credential.clientKeyData) {
      opts.cert = credential.clientCertificateData;
      opts.key = credential.clientKeyData;
    }
    if (credential.token) {
      const headers = (opts.headers ?? (opts.headers = {})) as Record<string, string>;
      headers.Authorization = `Bearer ${credential.token}`;
    }
  }
}
