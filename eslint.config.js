import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Adapters are the only doors to the outside (STYLE.md): these imports belong to one package. */
const sdkOwners = [
  { name: 'janus-gateway', owner: 'packages/media' },
  { name: 'stanza', owner: 'packages/chat' },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-next/**',
      'data/**',
      'artifacts/**',
      'test-results/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/guest/**/*.{ts,tsx}', 'apps/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...[...sdkOwners.map((sdk) => sdk.owner), null].map((owner) => {
    const banned = sdkOwners.filter((sdk) => sdk.owner !== owner);
    return {
      files: owner ? [`${owner}/**/*.{ts,tsx}`] : ['**/*.{ts,tsx}'],
      ignores: owner ? [] : sdkOwners.map((sdk) => `${sdk.owner}/**`),
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: banned.map(({ name, owner: o }) => ({
              name,
              message: `Only ${o} may import ${name}; use its adapter.`,
            })),
            patterns: banned.map(({ name, owner: o }) => ({
              group: [`${name}/*`],
              message: `Only ${o} may import ${name}.`,
            })),
          },
        ],
      },
    };
  }),
);
