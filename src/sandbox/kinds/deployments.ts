// Deployments (pkg/registry/apps/deployment): stored and served, but no Deployment controller
// runs in the sandbox (a create warns). Annotations bump generation too: they are copied to the
// Deployment's ReplicaSets (deploymentStrategy.PrepareForUpdate).
import { defaultDeployment } from '../defaults.js';
import { COLUMNS, deploymentRow } from '../table.js';
import { clone, deepEqual } from '../util.js';
import { validateDeploymentSpec, validateDeploymentStatus, validateSelectorImmutable } from '../validation-apps.js';
import { ALL_VERBS, SCALE, STATUS, type Kind } from './kind.js';
import { templateListStrategy, zeroTemplate } from './pod-template.js';

export const deployments: Kind = {
  name: 'deployments',
  singularName: 'deployment',
  kind: 'Deployment',
  listKind: 'DeploymentList',
  group: 'apps',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: { status: STATUS, scale: SCALE },
  generation: true,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: '8aSe+NMegvE=',
  protobuf: 'apps.v1.Deployment',
  noController: true,
  defaults: defaultDeployment,
  // Every DeploymentStatus field is omitempty.
  createStatus: () => ({}),
  // deploymentStatusStrategy.PrepareForUpdate: a status write keeps the stored labels too (its
  // reset fields are spec and metadata.labels), where a ReplicaSet's keeps only the spec.
  prepareForStatusUpdate(next, old) {
    if (old.metadata.labels === undefined) delete next.metadata.labels;
    else next.metadata.labels = clone(old.metadata.labels);
  },
  generationChanged: (next, old) => !deepEqual(next.spec, old.spec) || !deepEqual(next.metadata.annotations ?? {}, old.metadata.annotations ?? {}),
  validate(o, errs) {
    validateDeploymentSpec(o, errs);
    validateDeploymentStatus(o, errs);
  },
  validateUpdate: validateSelectorImmutable,
  validateStatus: validateDeploymentStatus,
  columns: COLUMNS.deployments,
  row: deploymentRow,
  listStrategy: templateListStrategy,
  zero: () => ({ metadata: {}, spec: { template: zeroTemplate(), strategy: {} }, status: {} }),
};
