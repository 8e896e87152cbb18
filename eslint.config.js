import js from "@eslint/js";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import prettier from "eslint-config-prettier/flat";
import jsxA11y from "eslint-plugin-jsx-a11y";
import globals from "globals";
import tseslint from "typescript-eslint";

// Besides the usual rules (ESLint's and typescript-eslint's recommended, Next.js's core web vitals
// with React, hooks and a little of jsx-a11y, then all of jsx-a11y's recommended rules) this
// enforces the layer rule of the README's "Structure": app -> lib -> db, nothing calls upward,
// app/ reaches the store only through lib/ (getDb from "@/db" aside), and components/ never
// touches the database and takes only types from lib/. Each rule is written for both spellings of
// an import, "@/db/schema" and "../../db/schema", so a relative path is no way round it.
// eslint-config-prettier comes last: it turns off every rule that Prettier's output could break.

/** An import of `dirs` from the project root, by the "@/" alias or by a relative path. */
const fromRoot = (dirs, rest = "(/|$)") => `^(@/|(\\.\\.?/)+)(${dirs.join("|")})${rest}`;
const restrict = (...patterns) => ["error", { patterns }];

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", ".data/**", ".cache/**", "next-env.d.ts", "tests/artifacts/**"] },
  js.configs.recommended,
  ...nextCoreWebVitals,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
      // The typescript-eslint version of the rule below understands `import type`.
      "no-restricted-imports": "off",
    },
  },
  {
    files: ["**/*.tsx"],
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrollable region must take keyboard focus to be scrolled without a mouse (axe's
      // scrollable-region-focusable, checked in the e2e tests): role="region" may carry tabIndex.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region"], allowExpressionValues: true }],
      // Warns about React Compiler memoisation, which this app does not use; TanStack Table's
      // useReactTable is the one "incompatible library" and works as documented without it.
      "react-hooks/incompatible-library": "off",
    },
  },
  // Test helpers that register vitest hooks are named use* (useBrowser, useMcpApp): not React hooks.
  { files: ["tests/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  {
    files: ["db/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrict({
        regex: fromRoot(["lib", "app", "components"]),
        message: "db/ is the bottom layer: it must not import lib/, app/ or components/.",
      }),
    },
  },
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrict({
        regex: fromRoot(["app", "components"]),
        message: "lib/ must not call upward into app/ or components/.",
      }),
    },
  },
  {
    // Routes stay thin: every query is a lib/ function, so app/ never sees a table or a driver.
    files: ["app/**/*.ts", "app/**/*.tsx", "proxy.ts", "instrumentation.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrict(
        {
          regex: fromRoot(["db"], "/"),
          message: 'app/ reaches the store through lib/ (and getDb from "@/db"): no schema, client or migration imports.',
        },
        {
          group: ["drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/*"],
          message: "app/ never queries the database directly: put the query in lib/.",
        },
      ),
    },
  },
  {
    files: ["components/**/*.tsx", "components/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrict(
        { regex: fromRoot(["db"]), message: "components/ never touches the database; pass data in as props." },
        {
          group: ["drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/*"],
          message: "components/ never touches the database; pass data in as props.",
        },
        { regex: fromRoot(["app"]), message: "components/ must not import routes." },
        {
          regex: fromRoot(["lib"]),
          allowTypeImports: true,
          message: "components/ take only types from lib/ (`import type`): the rules run on the server, in lib/.",
        },
      ),
    },
  },
  prettier,
);
