// Flat config: typescript-eslint's type-checked recommended rules over every TypeScript source.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "world/", "coverage/", "src/db/migrations/", "client/dist/", "test-artifacts/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
      // Async methods that implement a Promise-returning interface (a limiter, a Brain) without awaiting anything: 31 findings, none a bug.
      "@typescript-eslint/require-await": "off",
      // Flags `raw.toString()` of ws's RawData (a Buffer here: ws's default binaryType) and String() of decoded JSON fields, on purpose.
      "@typescript-eslint/no-base-to-string": "off",
      // 11 findings, each a function kept in an object typed with method syntax (a host's walkTo, a service's deps) or a library method called back with .call(this): none loses its this.
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // Tests, scripts and benches read JSON responses and ORM rows as `any` by design (asserted on, not trusted): 672 no-unsafe-* findings.
    files: ["test/**", "scripts/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Numbers and the like in assertion messages.
      "@typescript-eslint/restrict-template-expressions": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // PM2's process file is CommonJS (PM2 loads it with require()).
    files: ["**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      parserOptions: { projectService: false },
      globals: { require: "readonly", module: "writable", process: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
