// The bodies of a logged write cut to what the history reads, before they cross from the thread
// that reads the log to the one that replays it: a pod as the controller sees it (slimPod), and
// any other object without its managedFields. A body the history could not read stays whole, so
// that the replay says why as it would have.

import { slimPod, validatePod } from '../input/objects.js';
import type { ApiWrite } from './types.js';

type Obj = Record<string, any>;

export function projectWrite(w: ApiWrite): ApiWrite {
  // What is sent is read only where the answer does not tell: a status written (the controller's
  // numbers), a binding's node, a scale's replicas, and writes the server refused or answered
  // without the object. A pod sent is read for its metadata alone (its owner).
  const needRequest =
    w.code < 200 || w.code >= 300 || w.response === null || w.response.kind !== w.request?.kind || w.subresource !== null || w.resource === 'deployments';
  const request = !needRequest ? null : w.request?.kind === 'Pod' ? slimPod(w.request) : projectBody(w.request);
  const response = projectBody(w.response);
  return request === w.request && response === w.response ? w : { ...w, request, response };
}

function projectBody(o: Obj | null): Obj | null {
  if (o === null || typeof o !== 'object') return o;
  if (o.kind === 'Pod') {
    try {
      validatePod(o);
      return slimPod(o);
    } catch {
      return o;
    }
  }
  const meta = o.metadata;
  if (meta !== null && typeof meta === 'object' && 'managedFields' in meta) {
    const { managedFields: _mf, ...rest } = meta as Obj;
    return { ...o, metadata: rest };
  }
  return o;
}
