// How a kubeconfig's fields are read, as client-go's typed structs decode them: a mapping is an
// object, an empty string is unset, go-yaml's booleans are YAML 1.1's. Shared by the loading of
// the files (kubeconfig.ts), the flag overrides and the credentials.

/** A kubeconfig mapping (a cluster, a user, a context) as parsed: every scalar a string or null. */
export type Obj = Record<string, unknown>;

/** A string field's value; an empty string is unset, as a Go zero value is. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** go-yaml's booleans (YAML 1.1: y, yes, on, true … in their case variants). */
export function goBool(value: unknown): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  return /^(y|Y|yes|Yes|YES|on|On|ON|true|True|TRUE)$/.test(String(value));
}

/** Why a file could not be read, without Node's code and path around it. */
export function fsReason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // "ENOENT: no such file or directory, open '/x'" → "no such file or directory"
  return msg.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
}
