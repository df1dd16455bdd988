// The tiny type guards every layer shares. Pure: no I/O, no state.

/**
 * True for an object that is neither null nor an array: a JSON object as parsed, its values not
 * yet checked (each caller checks the fields it reads).
 */
export function isObj(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
