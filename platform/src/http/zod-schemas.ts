import type { FastifyInstance, FastifySchema, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';

/** A request part failed its zod schema; each surface's error handler renders it in its own envelope. */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly part: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(describeIssues(part, issues));
    this.name = 'RequestValidationError';
  }
}

/** `body.messages[0].role: Invalid option …` — names the field, never echoes the value. */
export function describeIssues(part: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length > 0 ? `${part}.${issue.path.map(String).join('.')}` : part;
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * Route schemas are zod: one source for validation and for the OpenAPI document. Responses are serialised with
 * JSON.stringify (their zod schemas document the shape; hot paths do not pay for a second validation).
 */
export function installZodCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (!isZodSchema(schema)) return () => true;
    return (data: unknown) => {
      const result = schema.safeParse(data);
      return result.success
        ? { value: result.data }
        : { error: new RequestValidationError(httpPart ?? 'request', result.error.issues) };
    };
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

const convertible = (schema: unknown) =>
  isZodSchema(schema)
    ? z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' })
    : schema;

/** `@fastify/swagger` transform: zod route schemas → JSON Schema (OpenAPI 3.1 uses draft 2020-12). */
export function zodOpenApiTransform({ schema, url }: { schema: FastifySchema; url: string }): {
  schema: FastifySchema;
  url: string;
} {
  if (!schema) return { schema, url };
  const transformed: Record<string, unknown> = { ...schema };
  for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
    if (schema[part] !== undefined) transformed[part] = convertible(schema[part]);
  }
  if (schema.response && typeof schema.response === 'object') {
    transformed.response = Object.fromEntries(
      Object.entries(schema.response as Record<string, unknown>).map(([status, value]) => [status, convertible(value)]),
    );
  }
  return { schema: transformed, url };
}

/**
 * Types handlers from their zod route schemas: `app.withTypeProvider<ZodTypeProvider>()` gives `request.body`,
 * `params`, `query` and `headers` the schema's output type, so no handler casts what the validator already checked.
 * Validation and the OpenAPI transform stay `installZodCompilers` and `zodOpenApiTransform`; this only informs
 * TypeScript. (`fastify-type-provider-zod` does the same but brings its own compilers; ours render errors in each
 * surface's envelope, so these few lines are all that is needed.)
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}
