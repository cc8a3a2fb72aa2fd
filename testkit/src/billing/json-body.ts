export interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
}

/** The part of a zod schema the routes use; testkit takes zod's schemas from contracts without depending on zod itself. */
export interface BodySchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}

/** The body as JSON, or undefined when it is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** `usage.promptTokens: …`: the first bad field by its path, an unknown field by its own name. */
export function describeIssue(issue: Issue | undefined): string {
  if (issue === undefined) return 'invalid body';
  const path = issue.keys?.[0] === undefined ? issue.path : [...issue.path, issue.keys[0]];
  const field = path.length === 0 ? 'body' : path.map(String).join('.');
  return `${field}: ${issue.message}`;
}
