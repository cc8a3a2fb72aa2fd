import { z } from 'zod';

/**
 * Text Postgres can hold exactly as sent: no U+0000 (a `text` or `jsonb` value cannot contain it, so the write fails)
 * and no unpaired surrogate (UTF-8 encoding turns it into U+FFFD, so two different ids would become one row owner).
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly the character refused here.
const storablePattern = /^(?:[^\u0000\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
const storableMessage = 'must not contain U+0000 or an unpaired surrogate';

/** A string schema narrowed to storable text; refused values answer 400 with the field's path. */
export function storableText(schema: z.ZodString = z.string()): z.ZodString {
  const narrowed = schema.regex(storablePattern, storableMessage);
  return schema.description === undefined ? narrowed : narrowed.describe(schema.description);
}

/** An optional contract field (`z.string().optional().describe(…)`) narrowed the same way, its description kept. */
export function storableTextOptional(field: z.ZodOptional<z.ZodString>): z.ZodOptional<z.ZodString> {
  const narrowed = storableText(field.unwrap()).optional();
  return field.description === undefined ? narrowed : narrowed.describe(field.description);
}
