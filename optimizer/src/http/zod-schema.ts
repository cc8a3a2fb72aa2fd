import type { FastifyTypeProvider } from 'fastify';
import type { z } from 'zod';

/**
 * Types handlers from their zod route schemas. Validation and the OpenAPI transform are platform's
 * (`installZodCompilers`, `zodOpenApiTransform`); this only tells TypeScript what a validated body looks like.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}
