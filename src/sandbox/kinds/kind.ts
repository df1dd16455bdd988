// What the sandbox knows of one resource kind, in one place: kube-apiserver keeps it in
// pkg/registry/<group>/<resource>/strategy.go (PrepareForCreate, PrepareForUpdate, Validate,
// ValidateUpdate, the status strategy) and storage.go (the table convertor, graceful deletion),
// next to the generic registry (k8s.io/apiserver's genericregistry.Store) that asks the strategy.
// Here each kind is a file under kinds/ exporting a `Kind`, and the generic code (registry, rest,
// defaults, validation, table, patch, managed fields) asks the kind, never its name.
import type { FieldError } from '../errors.js';
import type { Obj } from '../util.js';

/** The strategic-merge-patch strategy of a list field (its Go struct tags patchStrategy/patchMergeKey). */
export interface ListStrategy {
  /** 'merge' lists are merged (by mergeKey for lists of maps, as a set for primitives); others are replaced. */
  merge: boolean;
  mergeKey?: string;
}

/** A server-side table column (metav1.TableColumnDefinition). */
export interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface Kind {
  /** Plural resource name, as in URLs. */
  name: string;
  singularName: string;
  kind: string;
  listKind: string;
  group: string;
  version: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  /** Subresources with their own verbs; scale is served as autoscaling/v1 Scale. */
  subresources: Record<string, { verbs: string[]; group?: string; version?: string; kind?: string }>;
  /** Whether metadata.generation is tracked (bumped on spec changes). */
  generation: boolean;
  /** Whether a PUT may create the object (Events allow it): the strategy's AllowCreateOnUpdate. */
  allowCreateOnUpdate: boolean;
  /** Default propagation when a DELETE does not say (RCs in core/v1 orphan for compatibility). */
  defaultPropagation: 'Background' | 'Orphan';
  storageVersionHash: string;
  /** The protobuf message of the kind in ./protobuf's table (`core.v1.Pod`); none: JSON only. */
  protobuf?: string;

  /**
   * The field selector's fields beyond metadata.name and metadata.namespace (the strategy's
   * GetAttrs / ToSelectableFields), each with its value as a string.
   */
  selectableFields?: Readonly<Record<string, (o: Obj) => string>>;
  /** The name rule (the kind's ValidateObjectMeta name func); default: a DNS-1123 subdomain. */
  nameErrors?(name: string): string[];
  /**
   * Defaulting of a decoded object (the kind's SetObjectDefaults and v1 conversion).
   * `admission: false`: without what admission adds.
   */
  defaults?(o: Obj, opts: { admission?: boolean }): void;
  /** The status a create starts with (strategy.PrepareForCreate); the client's status is dropped. */
  createStatus?(o: Obj): Obj;
  /** The status an object preloaded without one gets (the sandbox's seed). */
  seedStatus?(): Obj;
  /** What else a status update keeps from the stored object (statusStrategy.PrepareForUpdate). */
  prepareForStatusUpdate?(next: Obj, old: Obj): void;
  /** Whether an update of the main resource bumps metadata.generation; default: spec changed. */
  generationChanged?(next: Obj, old: Obj): boolean;
  /** strategy.Validate (create, and update of the main resource). */
  validate?(o: Obj, errs: FieldError[]): void;
  /** strategy.ValidateUpdate's kind-specific rules (immutable fields). */
  validateUpdate?(o: Obj, old: Obj, errs: FieldError[]): void;
  /** statusStrategy.ValidateUpdate: only status is checked. */
  validateStatus?(o: Obj, errs: FieldError[]): void;
  /** The table convertor: columns and one row; default: Name, Age. */
  columns?: readonly Column[];
  row?(o: Obj, now: number): unknown[];
  /** The patch strategy of a kind-specific list at `path` (generic metadata lists are known to all). */
  listStrategy?(path: readonly string[]): ListStrategy | undefined;
  /** The Go zero value a create's field manager starts from (scope.Creater.New). */
  zero?(): Obj;
  /** metav1.LabelSelectorAsSelector of the Scale subresource's status.selector. */
  scaleSelector?(o: Obj): string;
  /** RESTGracefulDeleteStrategy (pods): a grace period, and a DELETE answers the object itself. */
  gracefulDelete?: true;
  /** The namespace lifecycle: its own delete (finalize) and seeding it twice is a no-op. */
  namespaceLifecycle?: true;
  /** No controller of this kind runs in the sandbox: a create warns (see no-controller.ts). */
  noController?: true;
}

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
export const STATUS = { verbs: ['get', 'patch', 'update'] };
export const SCALE = { verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' };

/** The value at a dotted path (undefined past a non-object). */
function valueAt(o: Obj, path: string): unknown {
  let cur: unknown = o;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[p];
  }
  return cur;
}

/** A selectable field's value: the field at `path` as a string ('' when absent). */
export function fieldString(path: string): (o: Obj) => string {
  return (o) => {
    const v = valueAt(o, path);
    return v === undefined || v === null ? '' : String(v);
  };
}

/** A boolean selectable field (fields.Set's strconv.FormatBool): absent is "false". */
export function fieldBool(path: string): (o: Obj) => string {
  return (o) => String(Boolean(valueAt(o, path)));
}

export function apiVersionOf(r: Pick<Kind, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}
