// Flat config: typescript-eslint's type-aware rules over every TypeScript source.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "world/", "coverage/", "src/db/migrations/", "client/dist/", "test-artifacts/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // PM2's process file is CommonJS (PM2 loads it with require()).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", parserOptions: { projectService: false }, globals: { require: "readonly", module: "writable", process: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
