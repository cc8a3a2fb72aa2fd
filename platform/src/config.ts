import { z } from 'zod';

/** A configuration error names each offending variable and the rule it broke; main() prints it and exits. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validate the environment once against a zod object schema and freeze the result. Services call this from their
 * `config.ts`, the only file that reads `process.env`.
 */
export function loadConfig<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined>,
): Readonly<z.infer<Schema>> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const variable = issue.path.map(String).join('.') || '(environment)';
      const received = 'input' in issue && issue.input !== undefined ? '' : '';
      return `${variable}: ${issue.message}${received}`;
    });
    throw new ConfigError(problems);
  }
  return Object.freeze(parsed.data);
}

/** Reusable environment-variable rules, so every service spells them the same way. */
export const env = {
  port: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a TCP port number' })
      .int('must be an integer')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(fallback),
  boolean: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  positiveInt: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(0, 'must be zero or more')
      .default(fallback),
  url: (protocols: readonly string[]) =>
    z.string().refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      },
      `must be a URL with scheme ${protocols.join(' or ')}`,
    ),
  hexKey: (bytes: number) =>
    z
      .string()
      .regex(new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`), `must be ${bytes * 2} hexadecimal characters (${bytes} bytes)`),
  secret: (minLength: number) => z.string().min(minLength, `must be at least ${minLength} characters`),
};

/**
 * A service's start: `--help` prints the help and exits 0; a configuration the schema refuses prints its message
 * (naming the variable and the rule) and exits 1; otherwise the loaded configuration.
 */
export function configOrExit<Config>(options: { help: string; load: () => Config; argv?: readonly string[] }): Config {
  const argv = options.argv ?? process.argv;
  if (argv.includes('--help')) {
    process.stdout.write(options.help);
    process.exit(0);
  }
  try {
    return options.load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n\nRun with --help for the list of variables.\n`);
    process.exit(1);
  }
}
