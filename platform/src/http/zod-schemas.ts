import type { FastifySchema, FastifySchemaCompiler, FastifyServerOptions, FastifyTypeProvider } from 'fastify';
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

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** A request part's validator: the zod schema's parse, or nothing for a schema that is only documentation. */
const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (!isZodSchema(schema)) return () => true;
  return (data: unknown) => {
    const result = schema.safeParse(data);
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(httpPart ?? 'request', result.error.issues) };
  };
};

/**
 * Route schemas are zod: one source for validation and for the OpenAPI document. Responses are serialised with
 * JSON.stringify (their zod schemas document the shape; hot paths do not pay for a second validation). Passed as
 * `Fastify({ schemaController })`, these replace fastify's default compilers outright, so Ajv and
 * fast-json-stringify, which no route would use, are never loaded (about 0.15 s of every start).
 */
export const zodSchemaController = {
  compilersFactory: {
    // fastify types the factory as Ajv's own (a compile over a bare schema); at run time it is called with the
    // route's schema definition, as `setValidatorCompiler`'s compiler is, which is what this one takes.
    buildValidator: (() => zodValidatorCompiler) as unknown as CompilersFactory['buildValidator'],
    buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
  },
} satisfies FastifyServerOptions['schemaController'];

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
 * Validation and the OpenAPI transform stay `zodSchemaController` and `zodOpenApiTransform`; this only informs
 * TypeScript. (`fastify-type-provider-zod` does the same but brings its own compilers; ours render errors in each
 * surface's envelope, so these few lines are all that is needed.)
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}
