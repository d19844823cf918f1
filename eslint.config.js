import { readdirSync } from 'node:fs';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The folders in `dir` (relative to this file): each is a feature or an area, so a new one is covered at once. */
function subfolders(dir) {
  return readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** Web features; each may import only itself, components/ and lib/ (features meet in app/). */
const features = subfolders('./apps/web/src/features/');

/** Server areas (apps/server/src/modules/*). */
const serverAreas = subfolders('./apps/server/src/modules/');

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
  // The server's shared layers (database, services, plugins) serve every area and depend on none of them.
  {
    files: ['apps/server/src/db/**', 'apps/server/src/services/**', 'apps/server/src/plugins/**'],
    rules: restrict([{ group: ['**/modules/**', '../modules', '../../modules'], message: 'Shared server layers do not import areas (modules/).' }]),
  },
  // An area uses another area's services and types, never its routes: each area registers its own routes.
  ...serverAreas.map((name) => ({
    files: [`apps/server/src/modules/${name}/**`],
    rules: restrict([
      {
        group: serverAreas.filter((a) => a !== name).flatMap((other) => [`../${other}/plugin`, `../${other}/*routes*`, `../${other}/cli`]),
        message: "Areas do not import each other's routes, plugins or commands; use the area's services (decorated or imported).",
      },
    ]),
  })),
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
