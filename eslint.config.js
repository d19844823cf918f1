import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Web features; each may import only itself, components/ and lib/ (features meet in app/). */
const features = ['auth', 'records', 'home', 'about', 'gallery', 'dashboard', 'admin', 'campaign', 'reports'];

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', '**/drizzle/**', 'data/**', '**/.tmp/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Hooks called in order and with their dependencies listed: a missed dependency shows stale data without an error.
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // A promise nobody awaits or catches fails silently (or crashes the server on an unhandled rejection).
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/shared/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  // The shared package is used by both apps and imports neither.
  {
    files: ['packages/shared/**'],
    rules: restrict([{ group: ['@app/server', '@app/web', '**/apps/**'], message: 'packages/shared must not import the apps.' }]),
  },
  {
    files: ['apps/web/**'],
    rules: restrict([{ group: ['@app/server', '**/apps/server/**'], message: 'The web app talks to the server over HTTP only.' }]),
  },
  {
    files: ['apps/server/**'],
    rules: restrict([{ group: ['@app/web', '**/apps/web/src/**'], message: 'The server does not import web code.' }]),
  },
  {
    files: ['apps/web/src/components/**', 'apps/web/src/lib/**'],
    rules: restrict([{ group: ['**/features/**'], message: 'Shared UI and lib do not depend on features.' }]),
  },
  ...features.map((name) => ({
    files: [`apps/web/src/features/${name}/**`],
    rules: restrict([
      {
        group: features.filter((f) => f !== name).flatMap((other) => [`../${other}`, `../${other}/**`, `**/features/${other}`, `**/features/${other}/**`]),
        message: 'Features do not import each other; share through components/ or lib/, or combine them in app/.',
      },
    ]),
  })),
);
