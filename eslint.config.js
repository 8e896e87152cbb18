import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Besides the usual rules this enforces the layer rule (DESIGN.md): app -> lib -> db, nothing
// calls upward, and components/ never touches the database.
const upward = (groups) => ["error", { patterns: groups.map((g) => ({ group: g.group, message: g.message })) }];

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", ".data/**", "next-env.d.ts", "tests/artifacts/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  { files: ["**/*.tsx"], plugins: { "react-hooks": reactHooks }, rules: reactHooks.configs.recommended.rules },
  {
    files: ["db/**/*.ts"],
    rules: { "no-restricted-imports": upward([{ group: ["@/lib/*", "@/app/*", "@/components/*"], message: "db/ is the bottom layer: it must not import lib/, app/ or components/." }]) },
  },
  {
    files: ["lib/**/*.ts"],
    rules: { "no-restricted-imports": upward([{ group: ["@/app/*", "@/components/*"], message: "lib/ must not call upward into app/ or components/." }]) },
  },
  {
    files: ["components/**/*.tsx", "components/**/*.ts"],
    rules: {
      "no-restricted-imports": upward([
        { group: ["@/db", "@/db/*", "drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/*"], message: "components/ never touches the database; pass data in as props." },
        { group: ["@/app/*"], message: "components/ must not import routes." },
      ]),
    },
  },
);
