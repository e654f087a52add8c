// Type-aware linting: promises that are never awaited or are passed where a callback's result is
// ignored, unused code, and the recommended TypeScript rules. `make lint` runs it with prettier.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "examples/**/node_modules/**",
      "tests/programs/**",
      "sdk/**",
      // A site's own files (served, not run by Node).
      "examples/*/site/**",
      ".state/**",
      "tests/support/summary-reporter.js",
      "jest.config.js",
      "eslint.config.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // native.ts (the entry of pulumi-krcloud/native) is compiled with the generated SDK it re-exports,
    // by tsconfig.native.json; every other file by tsconfig.json.
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["native.ts"], defaultProject: "tsconfig.native.json" },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // The client and the local cloud read untyped JSON on purpose and narrow it with zod or checks.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-require-imports": "off",
      // Caught errors (unknown) and abort reasons are passed on as they came.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
