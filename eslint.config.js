import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import { readdirSync } from 'node:fs';

/** Adapters are the only doors to the outside (docs/architecture.md): each SDK belongs to one package. */
const sdkOwners = [
  { name: 'janus-gateway', owner: 'packages/media' },
  { name: 'webrtc-adapter', owner: 'packages/media' },
  { name: 'stanza', owner: 'packages/chat' },
];
const owners = [...new Set(sdkOwners.map((sdk) => sdk.owner))];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/**
 * Each app's features in layers, lowest first: a feature imports only features of lower layers,
 * so features never import each other in circles (decision 0013). The app folder above them
 * composes them.
 */
const featureLayers = {
  guest: [
    ['diagnostics', 'browserCheck', 'company', 'guestAuth', 'refusals', 'schedule', 'consent'],
    ['geofence'],
    ['flow'],
    ['forms', 'chat', 'report'],
    ['call'],
    ['rating', 'selection', 'preview'],
  ],
  // The operator's page imports no other feature: operators are apart from staff (decision 0017).
  console: [
    ['health', 'operator'],
    ['auth'],
    ['availability'],
    ['chat'],
    ['queue'],
    // The guest's details beside a call (issue 19): the call screen shows its name.
    ['guestContext'],
    ['call', 'admin'],
    // The wallboard tells loading and failure as the admin pages do (admin's LoadStatus).
    ['wallboard'],
    // The reports area mounts the wallboard among its pages.
    ['reports'],
  ],
};

function featureLayerRules([app, layers]) {
  const placed = layers.flat();
  const folders = readdirSync(new URL(`apps/${app}/src/features`, import.meta.url));
  const unplaced = folders.filter((folder) => !placed.includes(folder));
  if (unplaced.length > 0) {
    throw new Error(`eslint.config.js: place ${unplaced.join(', ')} in featureLayers.${app}`);
  }
  return layers.flatMap((layer, index) =>
    layer.map((feature) => {
      const above = layers
        .slice(index)
        .flat()
        .filter((other) => other !== feature);
      return {
        files: [`apps/${app}/src/features/${feature}/**/*.{ts,tsx}`],
        ignores: ['**/*.test.{ts,tsx}'],
        rules: {
          '@typescript-eslint/no-restricted-imports': [
            'error',
            {
              patterns: [
                {
                  regex: `^(\\.\\./)+(features/)?(${above.join('|')})/`,
                  message: `${feature} may import only features of lower layers (featureLayers in eslint.config.js, decision 0013).`,
                },
              ],
            },
          ],
        },
      };
    }),
  );
}

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
    files: [
      'apps/guest/**/*.{ts,tsx}',
      'apps/console/**/*.{ts,tsx}',
      'packages/embed/**/*.{ts,tsx}',
    ],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The apps reach the API through one client (packages/protocol: client.ts, browser.ts).
    files: ['apps/guest/src/**/*.{ts,tsx}', 'apps/console/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/*/src/test/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest'].map((name) => ({
          name,
          message: 'Call the API through the REST client (app/api.ts).',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...[
          ['navigator', 'sendBeacon'],
          ['window', 'fetch'],
          ['globalThis', 'fetch'],
          ['window', 'XMLHttpRequest'],
        ].map(([object, property]) => ({
          object,
          property,
          message: 'Call the API through the REST client (app/api.ts, sendBeacon).',
        })),
      ],
    },
  },
  {
    files: ['apps/guest/**/*.tsx', 'apps/console/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A call's live audio and video have no caption file to attach; its text channel is the
      // chat beside them.
      'jsx-a11y/media-has-caption': 'off',
    },
  },
  ...Object.entries(featureLayers).flatMap(featureLayerRules),
  ...[...owners, null].map((owner) => {
    const banned = sdkOwners.filter((sdk) => sdk.owner !== owner);
    const names = banned.map((sdk) => escape(sdk.name)).join('|');
    return {
      files: owner ? [`${owner}/**/*.{ts,tsx}`] : ['**/*.{ts,tsx}'],
      ignores: owner ? [] : owners.map((o) => `${o}/**`),
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
        // `import('…')` too: a lazy import of an SDK is still an import of it.
        'no-restricted-syntax': [
          'error',
          {
            selector: `ImportExpression[source.value=/^(${names})(\\/|$)/]`,
            message: 'Only its adapter package may import this SDK, lazily or not.',
          },
        ],
      },
    };
  }),
);
