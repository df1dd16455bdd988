// The first pass's index of a file's entries (sources.ts: SortedSource), 28 bytes an entry.

/** The index of a file's entries: time, offset, length and line of each, in typed arrays. */
export class EntryIndex {
  n = 0;
  t = new Float64Array(1024);
  off = new Float64Array(1024);
  len = new Uint32Array(1024);
  line = new Uint32Array(1024);

  push(t: number, off: number, len: number, line: number): void {
    if (this.n === this.t.length) {
      const grow = <T extends Float64Array | Uint32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.t = grow(this.t);
      this.off = grow(this.off);
      this.len = grow(this.len);
      this.line = grow(this.line);
    }
    const i = this.n++;
    this.t[i] = t;
    this.off[i] = off;
    this.len[i] = len;
    this.line[i] = line;
  }

  /** The entries' order by time (then by place in the file). */
  order(): Uint32Array {
    const n = this.n;
    const t = this.t;
    const o = new Uint32Array(n);
    let up = true;
    let down = true;
    for (let i = 1; i < n && (up || down); i++) {
      if (t[i] < t[i - 1]) up = false;
      if (t[i] >= t[i - 1]) down = false;
    }
    if (up) for (let i = 0; i < n; i++) o[i] = i;
    else if (down) for (let i = 0; i < n; i++) o[i] = n - 1 - i;
    else {
      for (let i = 0; i < n; i++) o[i] = i;
      o.sort((a, b) => t[a] - t[b] || a - b);
    }
    return o;
  }
}
