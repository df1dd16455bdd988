// Errors a user can act on: one line, no stack trace, exit status >= 2 (kubectl diff's "error").
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** The first line of an error's message, for one-line reports. */
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg.split('\n').find((l) => l.trim() !== '') ?? msg).trim();
}

// File errors, in kubectl's words, for every input path (snapshots, plans, audit logs, Events,
// recordings, seeds): one place, so that they read one way. kubectl says
//   error: the path "x.yaml" does not exist
//   error: error parsing x.yaml: error converting YAML to JSON: yaml: line 3: …
// Every layer above core may throw them, as it may throw UserError.

/** A path that is not there: `the path "x.yaml" does not exist`. */
export function pathNotFound(path: string): UserError {
  return new UserError(`the path "${path}" does not exist`);
}

/** Node's words for an errno without its code and syscall: "EACCES: permission denied, open 'x'" → "permission denied". */
function errnoWords(e: unknown): string {
  const err = e as NodeJS.ErrnoException | null;
  switch (err?.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not a directory';
  }
  const text = oneLine(e);
  return text.replace(/^E[A-Z]+:\s*/, '').replace(/,\s*(open|read|scandir|stat|lstat|opendir)\s+'[^']*'$/, '') || text;
}

/**
 * A file that cannot be read: `the path "x" does not exist` for a missing one, else
 * `error reading x: permission denied` (from a Node.js error, or `why` in words).
 */
export function fileReadError(path: string, e: unknown): UserError {
  if (e instanceof UserError) return e;
  if (typeof e === 'string') return new UserError(`error reading ${path}: ${e}`);
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return pathNotFound(path);
  return new UserError(`error reading ${path}: ${errnoWords(e)}`);
}

/** Where in a file a problem is: a line, and a column when known. */
export interface FilePosition {
  line?: number;
  column?: number;
}

/** A file whose content is wrong: `error parsing x.yaml: <reason> (line 3, column 1)`, one line. */
export function fileParseError(path: string, reason: string, at: FilePosition = {}): UserError {
  const where = at.line === undefined ? '' : ` (line ${at.line}${at.column === undefined ? '' : `, column ${at.column}`})`;
  return new UserError(`error parsing ${path}: ${oneLine(reason).replace(/:\s*$/, '')}${where}`);
}

/** What js-yaml reports of a syntax error (its message has a caret excerpt under it; `mark` is 0-based). */
export interface YamlSyntaxError {
  message: string;
  reason?: string;
  mark?: { line: number; column: number };
}

/** A YAML syntax error as one line: the reason, and its line and column in the file. */
export function yamlParseError(path: string, e: YamlSyntaxError): UserError {
  const at = e.mark ? { line: e.mark.line + 1, column: e.mark.column + 1 } : {};
  return fileParseError(path, `invalid YAML: ${e.reason ?? oneLine(e.message)}`, at);
}

/**
 * The input held no object of any kind: an empty file or directory, empty stdin, an empty List.
 * That is what a failed `kubectl get … > snap.yaml` leaves (or one of the wrong context or
 * namespace), so it fails as `kubectl apply` fails: "no objects passed to apply". The input
 * layer does not know which command reads it: the command names itself (BaseCommand), as kubectl
 * names its verb.
 */
export class NoObjectsError extends UserError {
  constructor(readonly files: string[]) {
    super('no objects passed');
    this.name = 'NoObjectsError';
  }

  /** The message as `command` prints it: `no objects passed to diff`. */
  forCommand(command: string): string {
    return `no objects passed to ${command}`;
  }
}
