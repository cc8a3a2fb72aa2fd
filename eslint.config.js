// Lint is part of `npm test`. Beyond style it enforces the architecture: services never import each other,
// providers never import fastify, contracts import only zod, no console, no floating promises.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { contextDirection } from './scripts/lint/context-direction.js';

const services = ['gateway', 'optimizer', 'evidence', 'operator'];
const serviceBoundaries = services.map((service) => ({
  files: [`${service}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: services
          .filter((other) => other !== service)
          .flatMap((other) => [
            {
              group: [`@gw/${other}`, `@gw/${other}/*`],
              message: 'Services never import each other; share through contracts or platform.',
            },
            {
              regex: `^(\\.\\./)+${other}/src(/|$)`,
              message: 'Services never import each other; share through contracts or platform.',
            },
          ]),
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/__fixtures__/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      complexity: ['error', 25],
      'max-depth': ['error', 4],
      'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests may poke at shapes freely; production code may not.
    files: ['**/*.test.ts', '**/test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'max-lines': 'off',
    },
  },
  ...serviceBoundaries,
  {
    // Integration tests may wire two services together (e.g. the gateway's /mcp against the real optimizer).
    files: ['*/test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['gateway/src/providers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['fastify', '@fastify/*'], message: 'Providers and translators are transport-free.' }] },
      ],
    },
  },
  {
    // The gateway's contexts import only downwards (scripts/lint/context-direction.js has the order).
    files: ['gateway/src/**/*.ts'],
    plugins: { gw: { rules: { 'context-direction': contextDirection } } },
    rules: { 'gw/context-direction': 'error' },
  },
  {
    files: ['contracts/src/**/*.ts'],
    // Tests are not shipped: they may import their runner.
    ignores: ['contracts/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\.{1,2}/)', message: 'contracts imports only zod.' }] },
      ],
    },
  },
);
