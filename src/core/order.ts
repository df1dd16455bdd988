// The order of names in help and completion, as String.prototype.localeCompare gives it, without
// starting ICU's collator for plain names: its first use is a start-up cost help and TAB need
// not pay (docs/startup.md has the measurement). For strings of lowercase letters, digits, '-'
// and ' ' the root collation orders as the code units do (whitespace, then punctuation, then
// digits, then letters; checked on 200,000 random pairs): those are compared directly, anything
// else by localeCompare.

const PLAIN = /^[a-z0-9 -]*$/;

export function nameOrder(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}
