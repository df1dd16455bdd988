// Events (pkg/registry/core/event): names are path segments, a PUT may create one
// (AllowCreateOnUpdate), and `source` is always there.
import { COLUMNS, eventRow } from '../table.js';
import { validateEvent } from '../validation-core.js';
import { pathSegmentNameErrors } from '../validation.js';
import { ALL_VERBS, fieldString, type Kind } from './kind.js';

export const events: Kind = {
  name: 'events',
  singularName: 'event',
  kind: 'Event',
  listKind: 'EventList',
  group: '',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['ev'],
  subresources: {},
  generation: false,
  allowCreateOnUpdate: true,
  defaultPropagation: 'Background',
  storageVersionHash: 'r2yiGXH7wu8=',
  protobuf: 'core.v1.Event',
  nameErrors: pathSegmentNameErrors,
  // event.ToSelectableFields (source is source.component)
  selectableFields: {
    'involvedObject.kind': fieldString('involvedObject.kind'),
    'involvedObject.namespace': fieldString('involvedObject.namespace'),
    'involvedObject.name': fieldString('involvedObject.name'),
    'involvedObject.uid': fieldString('involvedObject.uid'),
    'involvedObject.apiVersion': fieldString('involvedObject.apiVersion'),
    'involvedObject.resourceVersion': fieldString('involvedObject.resourceVersion'),
    'involvedObject.fieldPath': fieldString('involvedObject.fieldPath'),
    reason: fieldString('reason'),
    reportingComponent: fieldString('reportingComponent'),
    source: fieldString('source.component'),
    type: fieldString('type'),
  },
  defaults(o) {
    o.source ??= {};
  },
  validate: validateEvent,
  columns: COLUMNS.events,
  row: eventRow,
  zero: () => ({ metadata: {} }),
};
