import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const features = ['auth', 'records', 'home', 'about', 'gallery', 'dashboard', 'admin', 'campaign', 'reports'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/drizzle/**', 'data/**', '**/.tmp/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // The shared package is used by both apps and imports neither; web features meet only in the app's routes.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages/shared', from: './apps' },
            { target: './apps/web/src', from: './apps/server' },
            { target: './apps/server/src', from: './apps/web' },
            ...features.map((name) => ({
              target: `./apps/web/src/features/${name}`,
              from: './apps/web/src/features',
              except: [`./${name}`],
              message: 'Features do not import each other; share through components/ or lib/, or combine them in app/routes.',
            })),
            { target: './apps/web/src/components', from: './apps/web/src/features' },
          ],
        },
      ],
    },
  },
);
