import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { StructuralSchemaError, structuralSchemaOf } from './structural-schema.js';

describe('structuralSchemaOf', () => {
  it('turns nullable into nullable: true and const into a one-value enum', () => {
    const schema = structuralSchemaOf(
      z.object({ cap: z.int().min(0).max(10).nullable(), mode: z.literal('fixed') }).strict(),
    );
    expect(schema.properties).toEqual({
      cap: { type: 'integer', nullable: true, minimum: 0, maximum: 10 },
      mode: { type: 'string', enum: ['fixed'] },
    });
    expect(schema).not.toHaveProperty('additionalProperties');
  });

  it('writes exclusive bounds the OpenAPI v3.0 way', () => {
    expect(structuralSchemaOf(z.number().gt(0).lt(1))).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      exclusiveMaximum: true,
    });
  });

  it('keeps free-form maps and list items with x-kubernetes-preserve-unknown-fields', () => {
    const schema = structuralSchemaOf(
      z.object({ servers: z.record(z.string(), z.unknown()), entries: z.array(z.unknown()).max(3) }),
    );
    expect(schema.properties).toEqual({
      servers: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      entries: { type: 'array', maxItems: 3, items: { 'x-kubernetes-preserve-unknown-fields': true } },
    });
  });

  it('writes int-or-string the way Kubernetes quantities are written', () => {
    const quantity = z.union([z.int(), z.string().regex(/^[0-9]+m?$/)]).meta({ 'x-kubernetes-int-or-string': true });
    expect(structuralSchemaOf(quantity)).toEqual({
      pattern: '^[0-9]+m?$',
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
  });

  it('carries Kubernetes extensions from zod metadata', () => {
    const schema = structuralSchemaOf(
      z
        .string()
        .max(5)
        .meta({ 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] }),
    );
    expect(schema['x-kubernetes-validations']).toEqual([{ rule: 'self == oldSelf', message: 'immutable' }]);
  });

  it('refuses what the API server would refuse, naming the path', () => {
    expect(() => structuralSchemaOf(z.object({ value: z.union([z.string(), z.object({ a: z.string() })]) }))).toThrow(
      StructuralSchemaError,
    );
    expect(() => structuralSchemaOf(z.object({ value: z.union([z.string(), z.int()]) }))).toThrow(/\.value: anyOf/);
  });
});
