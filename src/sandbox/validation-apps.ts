// apps/v1 validation as k8s.io/kubernetes/pkg/apis/apps/validation does it, for the fields the
// sandbox serves: ReplicaSets and Deployments.
import { GoRepr, type FieldError } from './errors.js';
import { isObj } from '../core/guards.js';
import { deepEqual, type Obj } from './util.js';
import { validateTemplate } from './validation-core.js';
import { labelSelectorRepr, labelsRepr, nonNegative, selectorMatchesLabels, validateLabelSelector } from './validation.js';

export function validateReplicaSetSpec(o: Obj, errs: FieldError[]): void {
  const spec = (o.spec ?? {}) as Obj;
  nonNegative(spec.replicas, 'spec.replicas', errs);
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errs);
  const tmplLabels = (spec.template?.metadata?.labels ?? {}) as Record<string, string>;
  if (!isObj(spec.selector)) {
    errs.push({ type: 'Required', field: 'spec.selector' });
  } else {
    const ok = validateLabelSelector(spec.selector, 'spec.selector', errs);
    const n = Object.keys(spec.selector.matchLabels ?? {}).length + ((spec.selector.matchExpressions ?? []) as unknown[]).length;
    if (n === 0)
      errs.push({ type: 'Invalid', field: 'spec.selector', value: labelSelectorRepr(spec.selector), detail: 'empty selector is invalid for deployment' });
    if (ok && !selectorMatchesLabels(spec.selector, tmplLabels)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.template.metadata.labels',
        value: new GoRepr(labelsRepr(spec.template?.metadata?.labels)),
        detail: '`selector` does not match template `labels`',
      });
    }
  }
  validateTemplate(spec, errs);
}

/** IsValidPercent / a non-negative int, for maxUnavailable and maxSurge. */
function intOrPercent(v: unknown, field: string, errs: FieldError[]): number | undefined {
  if (typeof v === 'number') {
    nonNegative(v, field, errs);
    return undefined;
  }
  if (typeof v !== 'string' || !/^[0-9]+%$/.test(v)) {
    errs.push({
      type: 'Invalid',
      field,
      value: v,
      detail: "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    });
    return undefined;
  }
  return Number(v.slice(0, -1));
}

function isZero(v: unknown): boolean {
  return v === 0 || v === '0%';
}

export function validateDeploymentSpec(o: Obj, errs: FieldError[]): void {
  const spec = (o.spec ?? {}) as Obj;
  validateReplicaSetSpec(o, errs);
  nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', errs);
  const strategy = (spec.strategy ?? {}) as Obj;
  if (strategy.type !== 'Recreate' && strategy.type !== 'RollingUpdate') {
    errs.push({ type: 'NotSupported', field: 'spec.strategy.type', value: strategy.type ?? '', detail: 'supported values: "Recreate", "RollingUpdate"' });
  } else if (strategy.type === 'Recreate') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      errs.push({ type: 'Forbidden', field: 'spec.strategy.rollingUpdate', detail: "may not be specified when strategy `type` is 'Recreate'" });
    }
  } else if (isObj(strategy.rollingUpdate)) {
    const ru = strategy.rollingUpdate;
    const unavailable = intOrPercent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable', errs);
    intOrPercent(ru.maxSurge, 'spec.strategy.rollingUpdate.maxSurge', errs);
    if (isZero(ru.maxUnavailable) && isZero(ru.maxSurge)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.strategy.rollingUpdate.maxUnavailable',
        value: ru.maxUnavailable,
        detail: 'may not be 0 when `maxSurge` is 0',
      });
    }
    if (unavailable !== undefined && unavailable > 100) {
      errs.push({ type: 'Invalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', value: ru.maxUnavailable, detail: 'must not be greater than 100%' });
    }
  }
  if (spec.progressDeadlineSeconds !== undefined && spec.progressDeadlineSeconds !== null) {
    nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds', errs);
    if (typeof spec.progressDeadlineSeconds === 'number' && spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.progressDeadlineSeconds',
        value: spec.progressDeadlineSeconds,
        detail: 'must be greater than minReadySeconds',
      });
    }
  }
}

export function validateDeploymentStatus(o: Obj, errs: FieldError[]): void {
  const st = (o.status ?? {}) as Obj;
  for (const f of [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
    'terminatingReplicas',
    'collisionCount',
  ]) {
    nonNegative(st[f], `status.${f}`, errs);
  }
  const r = st.replicas ?? 0;
  const msg = 'cannot be greater than status.replicas';
  if ((st.updatedReplicas ?? 0) > r) errs.push({ type: 'Invalid', field: 'status.updatedReplicas', value: st.updatedReplicas, detail: msg });
  if ((st.readyReplicas ?? 0) > r) errs.push({ type: 'Invalid', field: 'status.readyReplicas', value: st.readyReplicas, detail: msg });
  if ((st.availableReplicas ?? 0) > r) errs.push({ type: 'Invalid', field: 'status.availableReplicas', value: st.availableReplicas, detail: msg });
  if ((st.availableReplicas ?? 0) > (st.readyReplicas ?? 0))
    errs.push({ type: 'Invalid', field: 'status.availableReplicas', value: st.availableReplicas, detail: 'cannot be greater than readyReplicas' });
}

/** apps/v1 ValidateReplicaSetUpdate / ValidateDeploymentUpdate: spec.selector is immutable. */
export function validateSelectorImmutable(o: Obj, old: Obj, errs: FieldError[]): void {
  if (isObj(o.spec?.selector) && !deepEqual(o.spec.selector, old.spec?.selector)) {
    errs.push({ type: 'Invalid', field: 'spec.selector', value: labelSelectorRepr(o.spec.selector), detail: 'field is immutable' });
  }
}
