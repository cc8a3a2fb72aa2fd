import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { credentialShapeOf, findCredential, isCredentialKey } from './credential-shape.js';

// Fabricated values of each shape, assembled at run time so no literal looks like a leaked secret; a seeded
// generator keeps every run identical.
let seed = 0x9e3779b9;
function nextRandom(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
  return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
}
const from = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[Math.floor(nextRandom() * alphabet.length)]).join('');
const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnum = (length: number) => from(base62, length);
const random = (length: number) => from(`${base62}-_`, length);
const base64 = (length: number) => from(`${base62}+/`, length);
const jwt = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"dev@example.com","iat":1700000000}').toString('base64url')}.${random(43)}`;
const privateKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const credentials: [string, string][] = [
  ['an OpenAI project key', `sk-proj-${alnum(48)}`],
  ['an Anthropic key', `sk-ant-api03-${random(80)}`],
  ['a gateway client key', `ark_${random(43)}`],
  ['a gateway service key', `ark_svc_${random(43)}`],
  ['an admin API key', `aak_${random(43)}`],
  ['a bearer header value', `Bearer ${random(40)}`],
  ['a bearer token inside a header line', `Authorization: bearer ${alnum(24)}`],
  ['HTTP basic credentials', `Basic ${Buffer.from('deploy:hunter2-prod').toString('base64')}`],
  ['a PEM private key', privateKey],
  ['an RSA private key header', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow...'],
  ['a JWT', jwt],
  ['a JWT inside prose', `use this: ${jwt} thanks`],
  ['an AWS access key id', `AKIA${'IOSFODNN7EXAMPLE'}`],
  ['an AWS session key id', `ASIA${alnum(16).toUpperCase()}`],
  ['a GitHub token', `ghp_${alnum(36)}`],
  ['a GitHub fine-grained token', `github_pat_${alnum(22)}_${alnum(59)}`],
  ['a GitLab token', `glpat-${alnum(20)}`],
  ['a Slack bot token', `xoxb-${alnum(11)}-${alnum(13)}-${alnum(24)}`],
  ['a Slack webhook URL', `https://hooks.slack.com/services/T${alnum(8)}/B${alnum(8)}/${alnum(24)}`],
  ['a Google API key', `AIza${random(35)}`],
  ['a Stripe key', `sk_live_${alnum(24)}`],
  ['an npm token', `npm_${alnum(36)}`],
  ['a Hugging Face token', `hf_${alnum(34)}`],
  ['a connection string password', 'Server=db;User Id=app;Password=s3cr3t!;'],
  ['an Azure storage connection string', `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${base64(86)}==`],
  ['a URL with user and password', 'https://deploy:s3cr3t@registry.example.com/plugins'],
  ['a URL with a token query', `https://mcp.example.com/sse?token=${alnum(20)}`],
  ['a presigned S3 URL', `https://bucket.s3.amazonaws.com/x?X-Amz-Signature=${alnum(64)}`],
  ['an unknown vendor token', alnum(40)],
  ['an unknown base64 secret under a free-text header', `X-Acme-Signature: ${base64(44)}=`],
];

const harmless = [
  '',
  'claude-sonnet-4-5-20250929',
  'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'gpt-4.1-mini',
  'https://mcp.example.com/sse',
  'https://github.com/AcmeCorp/claude-plugins-Marketplace2025/blob/main/marketplace.json',
  'api.github.com',
  '*.internal.example.com',
  'npx -y @modelcontextprotocol/server-github',
  '${GITHUB_TOKEN}',
  'Bearer ${MCP_TOKEN}',
  'Use bearer authentication with your own token',
  'Token rotation happens weekly',
  'ref: 3f786850e387550fdab836ed7e6dc881de23001b',
  '550e8400-e29b-41d4-a716-446655440000',
  'AcmeCorporation-InternalMarketplace-2025',
  'task-management-server-for-engineering-teams',
  'max_tokens is clamped to 8192',
];

describe('credential shapes', () => {
  it.each(credentials)('recognises %s', (_label, value) => {
    expect(credentialShapeOf(value)).not.toBeNull();
  });

  it.each(harmless.map((value) => [value]))('leaves %j alone', (value) => {
    expect(credentialShapeOf(value)).toBeNull();
  });

  it('tells credential-naming keys from look-alikes', () => {
    for (const key of [
      'apiKey',
      'api_key',
      'x-api-key',
      'Authorization',
      'GITHUB_TOKEN',
      'OPENAI_API_KEY',
      'DB_PASSWORD',
      'clientSecret',
      'X-Custom-Auth',
      'aws_secret_access_key',
      'githubToken',
    ]) {
      expect(isCredentialKey(key), key).toBe(true);
    }
    for (const key of [
      'max_tokens',
      'maxTokens',
      'tokenUrl',
      'authorization_endpoint',
      'auth',
      'name',
      'command',
      'secretsManagerRegion',
    ]) {
      expect(isCredentialKey(key), key).toBe(false);
    }
  });
});

describe('findCredential', () => {
  it('finds a credential at any depth and under free-text keys, naming the path but not the value', () => {
    const token = `ghp_${alnum(36)}`;
    const document = {
      managedMcpServers: {
        'acme tools': { command: 'npx', args: ['-y', 'server'], env: { SOME_FREE_TEXT_NAME: token } },
      },
    };
    const finding = findCredential(document, 'settings');
    expect(finding).toEqual({
      path: 'settings.managedMcpServers["acme tools"].env.SOME_FREE_TEXT_NAME',
      kind: 'a GitHub token',
    });
    expect(JSON.stringify(finding)).not.toContain(token);
  });

  it('finds credentials inside arrays and deeply nested objects', () => {
    let nested: unknown = { note: `x ${`sk-proj-${alnum(40)}`}` };
    for (let level = 0; level < 10; level += 1) nested = { [`level${level}`]: [nested] };
    expect(findCredential({ allowedPluginMarketplaces: [nested] }, 'settings')?.kind).toBe('a provider API key');
  });

  it('rejects any value under a credential-naming key, except device-side placeholders', () => {
    expect(findCredential({ headers: { Authorization: 'letmein' } })).toEqual({
      path: 'headers.Authorization',
      kind: 'a secret under "Authorization"',
    });
    expect(findCredential({ env: { DB_PASSWORD: 'hunter2' } })?.path).toBe('env.DB_PASSWORD');
    expect(
      findCredential({ env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' }, headers: { Authorization: 'Bearer ${MCP_TOKEN}' } }),
    ).toBeNull();
    expect(findCredential({ env: { GITHUB_TOKEN: '' }, auth: { type: 'oauth' }, maxTokens: 4096 })).toBeNull();
  });

  it('checks object keys too', () => {
    expect(findCredential({ servers: { [`sk-proj-${alnum(40)}`]: true } })).toEqual({
      path: 'servers (a key)',
      kind: 'a provider API key',
    });
  });

  it('passes a realistic policy', () => {
    expect(
      findCredential({
        inferenceModels: [{ name: 'claude-sonnet-4-5' }, { name: 'gpt-4.1' }],
        managedMcpServers: {
          github: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PAT}' },
          },
          docs: { url: 'https://mcp.example.com/sse', headers: { 'X-Team': 'platform' } },
        },
        allowedPluginMarketplaces: [{ name: 'acme', source: 'github', repo: 'acme/claude-plugins', ref: 'main' }],
        chatTabEnabled: true,
        coworkEgressAllowedHosts: ['api.github.com', '*.example.com'],
      }),
    ).toBeNull();
  });
});
