// The slice of the Kubernetes object model the ReplicaSet controller reads.

// Objects are kept as the API server sends them (plain JSON); only the fields below are relied on.

export type Labels = Record<string, string>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  generateName?: string;
  namespace?: string;
  uid: string;
  generation?: number;
  resourceVersion?: string;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number;
  labels?: Labels | null;
  annotations?: Record<string, string> | null;
  ownerReferences?: OwnerReference[] | null;
  finalizers?: string[] | null;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string; // validated by core/selector: anything but the four operators is invalid
  values?: string[] | null;
}

export interface LabelSelector {
  matchLabels?: Labels | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
  lastProbeTime?: string | null;
  reason?: string;
  message?: string;
}

export interface ContainerStatus {
  name: string;
  restartCount?: number;
  ready?: boolean;
}

export interface Container {
  name: string;
  image?: string;
  restartPolicy?: string; // on init containers: "Always" makes it a sidecar
  [field: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  containers?: Container[];
  initContainers?: Container[];
  [field: string]: unknown;
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[] | null;
  containerStatuses?: ContainerStatus[] | null;
  initContainerStatuses?: ContainerStatus[] | null;
  [field: string]: unknown;
}

export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: Partial<ObjectMeta> | null;
  spec?: PodSpec;
}

export interface ReplicaSetCondition {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number | null;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[] | null;
}

export interface ReplicaSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelector | null;
    template?: PodTemplateSpec;
  };
  status?: ReplicaSetStatus;
}

export interface ReplicationController {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: Labels | null;
    template?: PodTemplateSpec;
  };
  status?: ReplicaSetStatus;
}

export type ControllerKind = 'ReplicaSet' | 'ReplicationController';

/** An object of one of the controller kinds, as the API serves it. */
export type ControllerObject = ReplicaSet | ReplicationController;

/**
 * client-go's DeletedFinalStateUnknown: an object deleted while its informer was not watching
 * (found missing by a relist). `obj` is the last state the cache knew.
 */
export interface Tombstone<T> {
  tombstone: true;
  /** namespace/name */
  key: string;
  obj: T;
}

/**
 * A ReplicaSet or a ReplicationController seen as a ReplicaSet, the way upstream converts RCs
 * ("as if RC were an older API version of RS"). `object` is the original, for rendering.
 */
export interface Controller {
  kind: ControllerKind;
  metadata: ObjectMeta;
  spec: ReplicaSet['spec'];
  status: ReplicaSetStatus;
  object: ControllerObject;
}

/**
 * Everything the planner reads: the informer caches of upstream, as one value. Controllers are
 * keyed by kind (the kinds of core/controller.ts's registry), each list in its listing order.
 */
export interface Snapshot {
  controllers: Record<ControllerKind, ControllerObject[]>;
  pods: Pod[];
  /**
   * The Deployments the input holds, for the deployment controller's rules (core/deployment):
   * absent when none was read, null when they could not be (a 403 on deployments.apps).
   */
  deployments?: Deployment[] | null;
}

// ---- apps/v1 Deployment: the slice the deployment controller (core/deployment) reads ----

/** intstr.IntOrString as JSON carries it: 3 or "25%". */
export type IntOrString = number | string;

export type DeploymentStrategyType = 'RollingUpdate' | 'Recreate';

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number | null;
  collisionCount?: number | null;
  conditions?: DeploymentCondition[] | null;
}

export interface Deployment {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    selector?: LabelSelector | null;
    template?: PodTemplateSpec;
    strategy?: {
      type?: string;
      rollingUpdate?: { maxSurge?: IntOrString | null; maxUnavailable?: IntOrString | null } | null;
    } | null;
    minReadySeconds?: number;
    revisionHistoryLimit?: number | null;
    paused?: boolean;
    progressDeadlineSeconds?: number | null;
  };
  status?: DeploymentStatus;
}
