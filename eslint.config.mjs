// Lint for the whole workspace. Module boundaries follow ARCHITECTURE.md's dependency rules:
// core depends on nothing of ours; providers/session/governance/sandbox/testing on core (sandbox also on
// session); persistence on core/session/governance; apps on libraries; no library on an app, Nest or Next.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const frameworkImports = [
  '@nestjs/*',
  'next',
  'next/*',
  'react',
  'react-dom',
  'class-validator',
  'class-transformer',
];

/** The dependency rules; `allow` lists imports permitted regardless (tests may use the test kit). */
function boundaryOptions(allow) {
  return {
    enforceBuildableLibDependency: false,
    allow,
    depConstraints: [
      {
        sourceTag: 'scope:core',
        onlyDependOnLibsWithTags: [],
        bannedExternalImports: frameworkImports,
      },
      {
        sourceTag: 'scope:providers',
        onlyDependOnLibsWithTags: ['scope:core'],
        bannedExternalImports: frameworkImports,
      },
      {
        sourceTag: 'scope:session',
        onlyDependOnLibsWithTags: ['scope:core'],
        bannedExternalImports: frameworkImports,
      },
      {
        sourceTag: 'scope:governance',
        onlyDependOnLibsWithTags: ['scope:core'],
        bannedExternalImports: frameworkImports,
      },
      {
        sourceTag: 'scope:sandbox',
        onlyDependOnLibsWithTags: ['scope:core', 'scope:session'],
        bannedExternalImports: frameworkImports,
      },
      {
        sourceTag: 'scope:testing',
        onlyDependOnLibsWithTags: ['scope:core', 'scope:providers', 'scope:session', 'scope:governance'],
        bannedExternalImports: frameworkImports,
      },
      {
        sourceTag: 'scope:persistence',
        // Persistence maps the schema the migrations create, and runs them in its tests.
        onlyDependOnLibsWithTags: ['scope:core', 'scope:session', 'scope:governance', 'scope:migrations'],
        bannedExternalImports: frameworkImports,
      },
      {
        sourceTag: 'scope:migrations',
        onlyDependOnLibsWithTags: [],
        bannedExternalImports: frameworkImports,
      },
      { sourceTag: 'type:lib', notDependOnLibsWithTags: ['type:app'] },
      { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['type:lib'] },
      // The dashboard talks to the API over HTTP only.
      { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: [] },
    ],
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      '**/coverage/**',
      '.nx/**',
      '.helios/**',
      '**/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      'no-console': 'off',
      '@nx/enforce-module-boundaries': ['error', boundaryOptions([])],
    },
  },
  {
    // Promise misuse is a correctness bug in agent loops and servers; these rules need type information.
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts', 'migrations/**/*.ts'],
    ignores: ['**/vitest.config.ts', '**/*.config.*'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The house: a file is read whole, a function at a glance. Every line counts (blank and comment too).
    files: ['libs/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Tests and contract suites are describe() blocks, so the function limit is for sources only.
    files: ['libs/**/*.ts'],
    ignores: ['**/*.test.ts', 'libs/*/test/**', 'libs/*/src/testing/**'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
  {
    // No import cycle inside a package (between packages, Nx's boundary rule already refuses one).
    // Type-only imports are erased at compile time and cannot cycle at run time, so they are not followed;
    // neither are other packages (`@helios/*` and npm), which keeps the check to one package's files.
    files: ['libs/**/*.ts', 'apps/api/**/*.ts', 'migrations/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Tests and contract suites (`src/testing`, used from tests only) of any library may use the test kit
    // (ScriptedModel, fake provider servers); sources may not.
    files: ['libs/**/*.test.ts', 'libs/**/test/**/*.ts', 'libs/*/src/testing/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaryOptions(['@helios/testing'])] },
  },
  {
    // Test configs share the workspace's vitest.shared.ts, which belongs to no project; benchmarks
    // measure internals of any package side by side with peers (they ship in no build).
    files: ['**/vitest.config.ts', 'bench/**'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  prettier,
);
