import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every folder of web/src/features: each is a feature, and features never import each other. */
const features = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/*
 * The layers, bottom to top: shared (the @app/shared package) -> web/src/lib and
 * web/src/components -> web/src/features/<feature> -> web/src/app (pages that compose features,
 * the layout, routes). A module imports only from its own layer or below; a feature imports only
 * itself (plus lib, components, shared). app/ and the entry (main.tsx) may import anything.
 */
const lowerLayers = {
  target: ['./web/src/lib', './web/src/components'],
  from: ['./web/src/features', './web/src/app'],
  message: 'lib/ and components/ import neither features/ nor app/: move what they need down to lib/ or components/.',
};
const sharedIsTheBottom = {
  target: './shared/src',
  from: ['./web', './functions', './infra'],
  message: 'shared/ is the bottom layer: it imports no other workspace.',
};
const featureIsolation = features.map((feature) => ({
  target: `./web/src/features/${feature}`,
  from: './web/src/features',
  except: [`./${feature}`],
  message: 'A feature never imports another feature: move the shared part to lib/ or components/, or compose both in app/.',
}));
const featuresBelowApp = {
  target: './web/src/features',
  from: './web/src/app',
  message: 'features/ never import app/: app/ composes features, not the other way round.',
};

/*
 * The layers of functions/src: handlers/ (one module per route) -> domain/, db/ and lib/.
 * db/ answers in domain terms (values, outcomes, plain errors) and never speaks HTTP: the
 * handlers map its answers to statuses. domain/ is pure: no database, no AWS SDK. local/ (the
 * local server) and ops/ (the operator command) may import anything, and nothing that is
 * deployed imports them.
 */
const fn = (dir) => `./functions/src/${dir}`;
const nothingImportsHandlers = {
  target: [fn('db'), fn('domain'), fn('lib')],
  from: fn('handlers'),
  message: 'Only the route table loads handlers/: move what others need to domain/, db/ or lib/.',
};
const dbSpeaksNoHttp = {
  target: fn('db'),
  from: [fn('lib/http.ts'), fn('lib/errors.ts'), fn('lib/paging.ts')],
  message: 'db/ never speaks HTTP (HttpError, statuses, list queries): return a domain-level result and let the handler map it.',
};
const domainIsPure = {
  target: fn('domain'),
  from: [fn('db'), fn('lib')],
  message: 'domain/ holds pure rules: it imports neither db/ nor lib/; pass it the values it needs.',
};
const toolsAreNotDeployed = {
  target: [fn('handlers'), fn('db'), fn('domain'), fn('lib')],
  from: [fn('local'), fn('ops')],
  message: 'local/ and ops/ are never deployed: nothing in handlers/, db/, domain/ or lib/ imports them.',
};
const awsSdkOutOfDomain = {
  patterns: [{ group: ['@aws-sdk/*', 'aws-sdk', 'aws-sdk/*'], message: 'domain/ holds pure rules: no AWS SDK (db/ and lib/ talk to AWS).' }],
};

const boundaries = (zones) => ['error', { basePath: import.meta.dirname, zones }];
/** Extension-less imports resolve to TypeScript modules (the rule needs the file an import names). */
const resolver = (extensions) => ({ 'import/resolver': { node: { extensions } } });

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', 'cdk.out/', '**/cdk.out/', '.data/', '.e2e-artifacts/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // `_name` marks a parameter or binding that must exist but is not read.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    settings: resolver(['.ts', '.tsx', '.js', '.json']),
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import/no-restricted-paths': boundaries([lowerLayers, featuresBelowApp, ...featureIsolation]),
    },
  },
  {
    // A feature's tests may render it inside the app (its routes, the session sync); never inside another feature.
    files: ['web/src/**/*.test.{ts,tsx}'],
    rules: { 'import/no-restricted-paths': boundaries([lowerLayers, ...featureIsolation]) },
  },
  {
    files: ['shared/src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: resolver(['.ts', '.js', '.json']),
    rules: { 'import/no-restricted-paths': boundaries([sharedIsTheBottom]) },
  },
  {
    files: ['functions/src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: resolver(['.ts', '.js', '.json']),
    rules: {
      'import/no-restricted-paths': boundaries([nothingImportsHandlers, dbSpeaksNoHttp, domainIsPure, toolsAreNotDeployed]),
    },
  },
  {
    // Tests beside the code may build their requests with the local server's helpers.
    files: ['functions/src/**/*.test.ts'],
    rules: { 'import/no-restricted-paths': boundaries([nothingImportsHandlers, dbSpeaksNoHttp, domainIsPure]) },
  },
  { files: ['functions/src/domain/**/*.ts'], rules: { 'no-restricted-imports': ['error', awsSdkOutOfDomain] } },
  { ...jsxA11y.flatConfigs.recommended, files: ['web/src/**/*.tsx'] },
  {
    files: ['web/src/**/*.tsx'],
    rules: {
      // A scrollable region (a transcript) takes focus so the keyboard can scroll it.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
    },
  },
  { files: ['web/public/sw.js'], languageOptions: { globals: globals.serviceworker } },
);
