import { z } from 'zod';

/**
 * Building blocks shared by every gw.dev custom resource. The zod schemas here are the single source: the CRD YAML
 * under crds/ is generated from them (operator/src/gen/crd-yaml.ts) and the operator parses objects with them.
 * Kubernetes-only keywords (CEL rules, list types) ride along as zod metadata and land verbatim in the OpenAPI schema.
 */

export const crdGroup = 'gw.dev';
export const crdVersion = 'v1alpha1';
export const crdApiVersion = `${crdGroup}/${crdVersion}`;

/** One CEL rule, as Kubernetes' `x-kubernetes-validations` entry. */
export interface CelRule {
  rule: string;
  message: string;
  /** Field path reported in the error (e.g. `.maxReplicas`); defaults to the node that carries the rule. */
  fieldPath?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

/** Attaches CEL rules to a schema node; the API server evaluates them, zod carries them to the YAML. */
export function withRules<T extends z.ZodType>(schema: T, rules: CelRule[]): T {
  return schema.meta({ 'x-kubernetes-validations': rules });
}

/** `self == oldSelf` on a field: it can be set at create time and never changed. */
export function immutable<T extends z.ZodType>(schema: T, field: string): T {
  return withRules(schema, [{ rule: 'self == oldSelf', message: `${field} is immutable` }]);
}

// DNS-1123 label and subdomain, as Kubernetes validates object names.
const dnsLabelPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomainPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const objectName = z.string().min(1).max(253).regex(dnsSubdomainPattern);
export const labelName = z.string().min(1).max(63).regex(dnsLabelPattern);

/** US dollars as a decimal string with at most two decimals ("12.50"): money is never a float. */
export const usdAmount = z
  .string()
  .max(16)
  .regex(/^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/)
  .describe('US dollars as a decimal string with at most two decimals, for example "12.50".');

/** A unit price in US dollars with up to six decimals ("0.075"), for per-million-token pricing. */
export const usdPrice = z
  .string()
  .max(20)
  .regex(/^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$/)
  .describe('US dollars as a decimal string with at most six decimals, for example "0.075".');

/** Token counts are integers; the ceiling keeps them exact in every JSON number implementation. */
export const tokenCount = z.int().min(0).max(1_000_000_000_000);

/** Provider slug as the gateway names a stored provider key. */
export const providerSlug = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/)
  .describe('Provider slug, lowercase letters, digits and dashes.');

export const httpsUrl = z
  .string()
  .max(2048)
  .regex(/^https:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/)
  .describe('An https URL without credentials, query or fragment.');

export const httpStatusCode = z.int().min(100).max(599);

/** A key inside a Secret in the resource's namespace; the value itself never appears in a custom resource. */
export const secretKeyRef = z
  .object({
    name: objectName.describe('Name of a Secret in the same namespace.'),
    key: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[-._a-zA-Z0-9]+$/)
      .describe('Key inside the Secret.'),
  })
  .strict();

/** Every policy kind names the Gateway it configures; moving a resource to another Gateway is a delete + create. */
export const gatewayRef = immutable(
  z
    .object({ name: objectName.describe('Name of a Gateway in the same namespace.') })
    .strict()
    .describe('The Gateway (same namespace) this resource configures.'),
  'gatewayRef',
);

/** The standard Kubernetes condition (metav1.Condition) with its upstream validation. */
export const condition = z
  .object({
    type: z
      .string()
      .min(1)
      .max(316)
      .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/)
      .describe('Condition type: Ready, Synced, Reconciling or Stalled.'),
    status: z.enum(['True', 'False', 'Unknown']),
    observedGeneration: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    lastTransitionTime: z.iso.datetime({ offset: true }).describe('When the status last changed.'),
    reason: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
      .describe('CamelCase reason for the last transition.'),
    message: z.string().max(32768).describe('Human-readable detail.'),
  })
  .strict();

export type Condition = z.infer<typeof condition>;

/** kstatus condition types (read by Flux and our Argo CD health snippets). */
export const conditionTypes = ['Ready', 'Synced', 'Reconciling', 'Stalled'] as const;
export type ConditionType = (typeof conditionTypes)[number];

export const conditions = z
  .array(condition)
  .max(16)
  .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
  .describe('Ready, Synced, Reconciling and Stalled, kstatus style.');

/** Status shared by every kind; usage counters stay in the gateway and Prometheus, never here. */
export const baseStatusShape = {
  observedGeneration: z
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('The metadata.generation the conditions describe.'),
  conditions: conditions.optional(),
};

export const baseStatus = z.object(baseStatusShape).strict();

/** An additional printer column of the CRD (`kubectl get`). */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export const readyColumn: PrinterColumn = {
  name: 'Ready',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Ready")].status',
};
export const reasonColumn: PrinterColumn = {
  name: 'Reason',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Ready")].reason',
  priority: 1,
};
export const gatewayColumn: PrinterColumn = { name: 'Gateway', type: 'string', jsonPath: '.spec.gatewayRef.name' };
export const ageColumn: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** Everything the generator needs to turn a kind into a CustomResourceDefinition. */
export interface CrdDefinition<Spec extends z.ZodType = z.ZodType, Status extends z.ZodType = z.ZodType> {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  description: string;
  spec: Spec;
  status: Status;
  printerColumns: PrinterColumn[];
}

/** Every kind lists under `kubectl get gw`. */
export const crdCategories = ['gw'];
