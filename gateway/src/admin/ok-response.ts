import { z } from 'zod';

/** The body of an admin write that has nothing else to say. */
export const okResponse = z.object({ ok: z.literal(true) });
