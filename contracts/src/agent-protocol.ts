import { z } from 'zod';

/**
 * The built-in agent lane's wire (the contract `/api/v1/osquery/*` and `/api/fleet/orbit/*`): the osquery TLS remote
 * API and the orbit agent API, "fixed by the agent protocol". Only the fields the evidence service reads are declared;
 * real agents send more, so request objects are loose. The testkit agent simulator speaks exactly these shapes.
 */

const secret = z.string().min(1).max(256);
const nodeKey = z.string().min(1).max(256);
const identifier = z.string().max(256);

// ---- osquery TLS remote API (`/api/v1/osquery/*`) ----

export const osqueryEnrollRequest = z.looseObject({
  enroll_secret: secret,
  host_identifier: identifier,
  platform_type: z.string().max(32).optional(),
  host_details: z
    .looseObject({
      system_info: z
        .looseObject({
          uuid: identifier.optional(),
          hostname: identifier.optional(),
          computer_name: identifier.optional(),
        })
        .optional(),
      os_version: z
        .looseObject({
          platform: z.string().max(64).optional(),
          name: z.string().max(128).optional(),
          version: z.string().max(64).optional(),
        })
        .optional(),
      // `uuid` is the system UUID osquery reads; `instance_id` is the id of this install of osquery.
      osquery_info: z
        .looseObject({
          uuid: identifier.optional(),
          instance_id: identifier.optional(),
          version: z.string().max(64).optional(),
        })
        .optional(),
    })
    .optional(),
});
export type OsqueryEnrollRequest = z.infer<typeof osqueryEnrollRequest>;

/** Every osquery call after enrollment carries the node key in its body. */
export const osqueryNodeRequest = z.looseObject({ node_key: nodeKey });

export const osqueryEnrollResponse = z.object({ node_key: z.string(), node_invalid: z.literal(false) });
/** An unknown node key, or a refused enroll secret: osquery re-enrolls when it reads `node_invalid: true`. */
export const osqueryNodeInvalid = z.object({ node_invalid: z.literal(true), error: z.string() });
/** Any other osquery failure (a malformed body, a store outage): `node_invalid: false`, so osquery retries as it is. */
export const osqueryErrorBody = z.object({ node_invalid: z.boolean(), error: z.string() });

/** The empty object both agents receive for a call that returns nothing (a write, a log, a result, a token). */
export const agentAcknowledgement = z.object({}).strict();

export const osqueryConfigResponse = z.looseObject({
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  schedule: z.record(z.string(), z.unknown()),
  decorators: z.record(z.string(), z.unknown()).optional(),
});

/** Distributed queries the node should run now, by name. Policy queries are named `gw_policy_<policy name>`. */
export const osqueryDistributedReadResponse = z.object({ queries: z.record(z.string(), z.string()) });

export const osqueryDistributedWriteRequest = z.looseObject({
  node_key: nodeKey,
  queries: z.record(z.string(), z.array(z.record(z.string(), z.unknown())).nullable()),
  /** osquery's status per query: 0 ran, anything else failed (the query's result is then unknown). */
  statuses: z.record(z.string(), z.number().int()).optional(),
  messages: z.record(z.string(), z.string()).optional(),
});
export type OsqueryDistributedWrite = z.infer<typeof osqueryDistributedWriteRequest>;

export const osqueryLogRequest = z.looseObject({ node_key: nodeKey, log_type: z.string().max(32), data: z.unknown() });

/** The distributed-query name of a pack policy; results under other names are ignored. */
export const policyQueryPrefix = 'gw_policy_';
export const policyQueryName = (policyName: string): string => `${policyQueryPrefix}${policyName}`;

// ---- orbit agent API (`/api/fleet/orbit/*`) ----

export const orbitEnrollRequest = z.looseObject({
  enroll_secret: secret,
  hardware_uuid: identifier.regex(/\S/, 'a hardware UUID'),
  hardware_serial: identifier.optional(),
  hostname: identifier.optional(),
  platform: z.string().max(32).optional(),
  osquery_identifier: identifier.optional(),
  computer_name: identifier.optional(),
  hardware_model: identifier.optional(),
});
export type OrbitEnrollRequest = z.infer<typeof orbitEnrollRequest>;
export const orbitEnrollResponse = z.object({ orbit_node_key: z.string() });

export const orbitNodeRequest = z.looseObject({ orbit_node_key: nodeKey });

export const orbitConfigResponse = z.looseObject({
  script_execution_timeout: z.number().int().positive(),
  notifications: z.looseObject({ pending_script_execution_ids: z.array(z.string()).optional() }),
});

/** The device token fleet desktop shows the developer; URL-safe (the agent puts it in a device URL). */
export const orbitDeviceTokenRequest = z.looseObject({
  orbit_node_key: nodeKey,
  device_auth_token: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[A-Za-z0-9._~-]+$/, 'URL-safe characters only'),
});

export const orbitScriptRequest = z.looseObject({ orbit_node_key: nodeKey, execution_id: z.string().min(1).max(64) });
export const orbitScriptResponse = z.object({
  execution_id: z.string(),
  script_contents: z.string(),
  output: z.string(),
  runtime: z.number().int(),
  exit_code: z.number().int().nullable(),
});

export const orbitScriptResultRequest = z.looseObject({
  orbit_node_key: nodeKey,
  execution_id: z.string().min(1).max(64),
  output: z.string(),
  runtime: z.number().int().min(0),
  /** -1 when the agent killed the script at its deadline. */
  exit_code: z.number().int(),
  /** The deadline the agent ran the script under (seconds); orbit sends it with every result. */
  timeout: z.number().int().optional(),
});
export type OrbitScriptResult = z.infer<typeof orbitScriptResultRequest>;

/** Fleet's error body, which orbit reads on every non-2xx answer (401 sends it back to enroll). */
export const agentErrorBody = z.object({
  message: z.string(),
  errors: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type AgentErrorBody = z.infer<typeof agentErrorBody>;
