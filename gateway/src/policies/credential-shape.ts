/**
 * Finds credential-shaped strings in a policy document (The write boundary
 * rejects credential-shaped string values at every depth, including under free-text keys). A desktop policy is
 * served to every developer's machine, so it must never carry a secret; a finding names where and what kind, never
 * the value.
 */
export interface CredentialFinding {
  /** Dotted path of the offending value (`settings.managedMcpServers.github.env.GITHUB_TOKEN`). */
  path: string;
  /** What it looks like, for the error message ("a GitHub token"). */
  kind: string;
}

// Vendor and format shapes, matched anywhere inside a string (a header line, a command line, a URL).
const valueShapes: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'a private key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/ },
  { kind: 'a bearer token', pattern: /\bbearer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{12,}=*/i },
  { kind: 'a provider API key', pattern: /\bsk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/ },
  { kind: 'a gateway key', pattern: /\b(?:ark|aak)_[A-Za-z0-9_-]{20,}/ },
  {
    kind: 'an AWS access key',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|AKPA|ANPA|ANVA|APKA|AROA)[A-Z0-9]{16}\b/,
  },
  { kind: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/ },
  { kind: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { kind: 'a Slack token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/ },
  { kind: 'a Slack webhook URL', pattern: /hooks\.slack\.com\/services\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]+/ },
  { kind: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { kind: 'a Google OAuth client secret', pattern: /\bGOCSPX-[A-Za-z0-9_-]{20,}/ },
  { kind: 'a Stripe key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/ },
  { kind: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { kind: 'a Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{30,}/ },
  { kind: 'an Azure storage key', pattern: /\bAccountKey=[A-Za-z0-9+/]{20,}={0,2}/i },
  { kind: 'a password in a connection string', pattern: /(?:^|[;?&\s])(?:password|pwd)=[^;&\s]+/i },
  { kind: 'a URL with embedded credentials', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:]+:[^\s/@]+@/i },
  {
    kind: 'a URL with a credential in its query',
    pattern:
      /[?&](?:access_token|id_token|refresh_token|api[_-]?key|apikey|token|key|secret|client_secret|password|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature)=[^&#\s]{6,}/i,
  },
];

/** `Basic <base64 of user:password>`: only flagged when it really decodes to a user and a password. */
function carriesBasicCredentials(value: string): boolean {
  for (const match of value.matchAll(/\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})/gi)) {
    const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
    if (/^[\x20-\x7e]+:[\x20-\x7e]+$/.test(decoded)) return true;
  }
  return false;
}

/**
 * A long random-looking token of no known vendor (under a free-text key a vendor prefix cannot be relied on): 32+
 * base64 characters mixing upper case, lower case and digits that change character class as often as random data
 * does (about 6 in 10 neighbours; words in identifiers such as "AcmeCorporation-Marketplace-2025" change far less
 * often). Model ids, host names, hex digests and UUIDs lack the mix and stay allowed.
 */
function isHighEntropyToken(candidate: string): boolean {
  if (candidate.length < 32) return false;
  const classOf = (character: string) =>
    /[A-Z]/.test(character)
      ? 'upper'
      : /[a-z]/.test(character)
        ? 'lower'
        : /[0-9]/.test(character)
          ? 'digit'
          : 'symbol';
  const counts = { upper: 0, lower: 0, digit: 0, symbol: 0 };
  const frequency = new Map<string, number>();
  let transitions = 0;
  let previous = '';
  for (const character of candidate) {
    const kind = classOf(character);
    counts[kind] += 1;
    if (previous !== '' && kind !== previous) transitions += 1;
    previous = kind;
    frequency.set(character, (frequency.get(character) ?? 0) + 1);
  }
  if (counts.upper < 2 || counts.lower < 2 || counts.digit < 2) return false;
  if (transitions / (candidate.length - 1) < 0.35) return false;
  let entropy = 0;
  for (const count of frequency.values()) {
    const share = count / candidate.length;
    entropy -= share * Math.log2(share);
  }
  return entropy >= 3.5;
}

/** What a credential-shaped string looks like, or null. */
export function credentialShapeOf(value: string): string | null {
  for (const shape of valueShapes) if (shape.pattern.test(value)) return shape.kind;
  if (carriesBasicCredentials(value)) return 'HTTP basic credentials';
  for (const token of value.split(/[^A-Za-z0-9+/_=-]+/))
    if (isHighEntropyToken(token.replace(/=+$/, ''))) return 'a random-looking secret token';
  return null;
}

// Keys that name a secret: exact names, then separator- or camelCase-suffixed ones (GITHUB_TOKEN, x-custom-auth,
// clientSecret). `max_tokens`, `tokenUrl` or `authorization_endpoint` do not match.
const credentialKeyNames = new Set([
  'apikey',
  'api_key',
  'api-key',
  'x-api-key',
  'token',
  'accesstoken',
  'access_token',
  'refreshtoken',
  'refresh_token',
  'idtoken',
  'id_token',
  'secret',
  'clientsecret',
  'client_secret',
  'password',
  'passwd',
  'authorization',
  'proxy-authorization',
  'bearer',
  'privatekey',
  'private_key',
  'cookie',
  'credentials',
  'secretaccesskey',
  'aws_secret_access_key',
  'aws_session_token',
  'x-auth-token',
]);
const credentialKeySuffix =
  /[_.-](?:token|secret|password|passwd|pwd|api[_-]?key|apikey|auth|authorization|credentials?|private[_-]?key|access[_-]?key|secret[_-]?key)$/i;
const credentialKeyCamelSuffix =
  /[a-z0-9](?:Token|Secret|Password|Passwd|ApiKey|PrivateKey|AccessKey|SecretKey|Credentials?)$/;

export function isCredentialKey(key: string): boolean {
  return (
    credentialKeyNames.has(key.toLowerCase()) || credentialKeySuffix.test(key) || credentialKeyCamelSuffix.test(key)
  );
}

// A reference the client resolves on the device ("${GITHUB_TOKEN}", "Bearer ${TOKEN}"): how a policy names a
// secret without holding it.
const placeholder =
  /^(?:(?:bearer|basic|token)\s+)?(?:\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{\s*[A-Za-z_][A-Za-z0-9_.]*\s*\}\})$/i;

const pathOf = (parent: string, key: string) =>
  parent === '' ? key : /^[A-Za-z0-9_-]+$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;

/**
 * The first credential-shaped string in a JSON value, at any depth: any string value (or object key) with a
 * credential shape, and any non-empty string under a key that names a secret unless it is a device-side placeholder.
 */
export function findCredential(value: unknown, path = ''): CredentialFinding | null {
  if (typeof value === 'string') {
    const kind = credentialShapeOf(value);
    return kind === null ? null : { path: path || '(root)', kind };
  }
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) {
      const finding = findCredential(entry, `${path}[${index}]`);
      if (finding) return finding;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, entry] of Object.entries(value)) {
    const entryPath = pathOf(path, key);
    const keyKind = credentialShapeOf(key);
    if (keyKind !== null) return { path: `${path || '(root)'} (a key)`, kind: keyKind };
    if (typeof entry === 'string' && entry !== '' && isCredentialKey(key) && !placeholder.test(entry.trim()))
      return { path: entryPath, kind: `a secret under "${key}"` };
    const finding = findCredential(entry, entryPath);
    if (finding) return finding;
  }
  return null;
}
