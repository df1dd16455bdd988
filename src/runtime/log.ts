// The logger of `run`, shaped after klog: `info`, `warn`, `error`, and `v(n).info(...)` printed
// only when the verbosity (-v) is at least n.
//
// text (for a terminal), klog's header then the message and key=value fields:
//   I1122 21:04:05.123456 replicaset sync "shop/web" duration=12ms
// json (one object per line, component-base's JSON format):
//   {"ts":1763845445.123,"level":"info","v":2,"msg":"replicaset sync","key":"shop/web"}
// Fields never override ts/level/v/msg: a clashing field key is written with a leading "_".

import type { Clock } from './clock.js';

type LogFormat = 'text' | 'json';
type LogFields = Record<string, unknown>;

interface LogStream {
  write(chunk: string): unknown;
}

export interface LoggerOptions {
  format?: LogFormat; // default text
  /** klog's -v: messages of v(n) are printed when verbosity >= n (default 0). */
  verbosity?: number;
  stream?: LogStream; // default process.stderr
  clock?: Pick<Clock, 'now'>;
  /** ANSI colours in the text format (default false). */
  color?: boolean;
  /** Text timestamps in UTC rather than local time (klog prints local time). */
  utc?: boolean;
}

interface VerboseLogger {
  /** Whether messages at this level are printed (to skip building expensive fields). */
  readonly enabled: boolean;
  info(msg: string, fields?: LogFields): void;
}

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  v(level: number): VerboseLogger;
  /** A logger that adds these fields to every line (klog's WithValues). */
  with(fields: LogFields): Logger;
}

type Level = 'info' | 'warning' | 'error';
const LETTER: Record<Level, string> = { info: 'I', warning: 'W', error: 'E' };
const RESERVED = new Set(['ts', 'level', 'v', 'msg']);

const ANSI = {
  dim: (s: string) => `\x1b[2m${s}\x1b[22m`,
  red: (s: string) => `\x1b[31m${s}\x1b[39m`,
  yellow: (s: string) => `\x1b[33m${s}\x1b[39m`,
  cyan: (s: string) => `\x1b[36m${s}\x1b[39m`,
};

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** klog's header time: MMDD hh:mm:ss.uuuuuu. */
function klogTime(ms: number, utc: boolean): string {
  const d = new Date(Math.floor(ms));
  const micros = Math.floor((ms - Math.floor(ms / 1000) * 1000) * 1000);
  const [mo, day, h, mi, s] = utc
    ? [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    : [d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
  return `${pad(mo)}${pad(day)} ${pad(h)}:${pad(mi)}:${pad(s)}.${pad(micros, 6)}`;
}

/** A field value as plain JSON data (errors as their message, bigints and dates as strings). */
function plain(v: unknown): unknown {
  if (v instanceof Error) return v.message;
  if (typeof v === 'bigint') return v.toString();
  if (v === undefined) return null;
  if (typeof v === 'function' || typeof v === 'symbol') return String(v);
  return v;
}

function jsonOf(v: unknown): string {
  try {
    const text = JSON.stringify(plain(v), (_k, x: unknown) => (x instanceof Error ? x.message : typeof x === 'bigint' ? x.toString() : x));
    return text ?? 'null';
  } catch {
    return JSON.stringify(String(v)); // circular
  }
}

/** Strings are quoted (as JSON) when empty or holding spaces, `"`, `=`, `\` or control characters. */
function textValue(v: unknown): string {
  const p = plain(v);
  let s: string;
  if (typeof p === 'string') s = p;
  else if (p === null || typeof p === 'number' || typeof p === 'boolean') s = String(p);
  else if (p instanceof Date) s = Number.isNaN(p.getTime()) ? 'invalid-date' : p.toISOString();
  else s = jsonOf(p);
  const needsQuotes = typeof p === 'string' ? s === '' || /[\s"=\\\x00-\x1f\x7f-\x9f]/.test(s) : /\s/.test(s);
  return needsQuotes ? JSON.stringify(s) : s;
}

function textKey(k: string): string {
  return k === '' || /[\s"=]/.test(k) ? JSON.stringify(k) : k;
}

class KlogLogger implements Logger {
  constructor(
    private readonly o: Required<Omit<LoggerOptions, 'clock'>> & { clock: Pick<Clock, 'now'> },
    private readonly base: LogFields,
  ) {}

  info(msg: string, fields?: LogFields): void {
    this.write('info', 0, msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.write('warning', 0, msg, fields);
  }

  error(msg: string, fields?: LogFields): void {
    this.write('error', 0, msg, fields);
  }

  v(level: number): VerboseLogger {
    const enabled = this.o.verbosity >= level;
    return {
      enabled,
      info: (msg, fields) => {
        if (enabled) this.write('info', level, msg, fields);
      },
    };
  }

  with(fields: LogFields): Logger {
    return new KlogLogger(this.o, { ...this.base, ...fields });
  }

  private write(level: Level, v: number, msg: string, fields: LogFields | undefined): void {
    const all = fields ? { ...this.base, ...fields } : this.base;
    const now = this.o.clock.now();
    const line = this.o.format === 'json' ? this.json(level, v, now, msg, all) : this.text(level, now, msg, all);
    this.o.stream.write(`${line}\n`);
  }

  private json(level: Level, v: number, now: number, msg: string, fields: LogFields): string {
    const parts = [`"ts":${now / 1000}`, `"level":${JSON.stringify(level)}`];
    if (level !== 'error') parts.push(`"v":${v}`);
    parts.push(`"msg":${JSON.stringify(msg)}`);
    for (const [k, val] of Object.entries(fields)) {
      let key = k;
      while (RESERVED.has(key) || (key !== k && Object.hasOwn(fields, key))) key = `_${key}`;
      parts.push(`${JSON.stringify(key)}:${jsonOf(val)}`);
    }
    return `{${parts.join(',')}}`;
  }

  private text(level: Level, now: number, msg: string, fields: LogFields): string {
    const c = this.o.color;
    let header = `${LETTER[level]}${klogTime(now, this.o.utc)}`;
    if (c) header = level === 'error' ? ANSI.red(header) : level === 'warning' ? ANSI.yellow(header) : ANSI.dim(header);
    const kv = Object.entries(fields).map(([k, val]) => `${c ? ANSI.cyan(textKey(k)) : textKey(k)}=${textValue(val)}`);
    const m = c && level === 'error' ? ANSI.red(msg) : msg;
    return [header, m, ...kv].join(' ');
  }
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const verbosity = opts.verbosity ?? 0;
  if (!Number.isInteger(verbosity) || verbosity < 0) throw new RangeError(`log verbosity must be a whole number >= 0, got ${verbosity}`);
  return new KlogLogger(
    {
      format: opts.format ?? 'text',
      verbosity,
      stream: opts.stream ?? process.stderr,
      clock: opts.clock ?? { now: () => Date.now() },
      color: opts.color ?? false,
      utc: opts.utc ?? false,
    },
    {},
  );
}
