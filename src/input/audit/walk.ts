// --audit-log takes files and directories in any mix: a directory is walked recursively (sorted,
// symlinks followed once). Only what is recognisably not a log is left out, silently: must-gather's
// `*.audit_logs_listing` files, READMEs and other Markdown, hidden files. In a must-gather (a tree
// holding an `audit_logs` directory) only `audit_logs/` is read; the files found there are
// labelled openshift-must-gather (their content is plain kube-apiserver JSON lines).

import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { fileReadError, UserError } from '../../errors.js';

export interface InputFile {
  path: string;
  /** Found in a must-gather's audit_logs tree. */
  mustGather: boolean;
  /** Found by walking a directory (an empty file there is left out, not refused). */
  walked: boolean;
}

/** Names that are not audit logs whatever they hold. */
function notALog(name: string): boolean {
  return name.endsWith('.audit_logs_listing') || /^readme(\.[a-z]+)?$/i.test(name) || /\.md$/i.test(name) || name.startsWith('.');
}

const inAuditLogs = (p: string) => p.split(sep).includes('audit_logs');

export function expandInputs(inputs: string[], noun = 'audit log'): InputFile[] {
  const out: InputFile[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, mustGather: boolean) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      throw fileReadError(dir, e);
    }
    // a must-gather: read only its audit_logs tree
    if (!mustGather && names.includes('audit_logs') && isDir(join(dir, 'audit_logs'))) {
      walk(join(dir, 'audit_logs'), true);
      return;
    }
    const dirs: string[] = [];
    for (const n of names) {
      if (notALog(n)) continue;
      const p = join(dir, n);
      let st: Stats;
      try {
        st = statSync(p);
      } catch {
        continue; // a dangling link
      }
      if (st.isDirectory()) {
        // a must-gather found deeper down (must-gather.local.N/<image>/audit_logs)
        dirs.push(p);
      } else if (st.isFile()) out.push({ path: p, mustGather: mustGather || inAuditLogs(p), walked: true });
    }
    for (const d of dirs) walk(d, mustGather || basename(d) === 'audit_logs');
  };
  for (const input of inputs) {
    let st: Stats;
    try {
      st = statSync(input);
    } catch (e) {
      throw fileReadError(input, e);
    }
    if (st.isDirectory()) {
      const before = out.length;
      walk(input, inAuditLogs(input));
      if (out.length === before) throw new UserError(`${noun} directory ${input} holds no file to read`);
    } else out.push({ path: input, mustGather: inAuditLogs(input), walked: false });
  }
  return out;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
