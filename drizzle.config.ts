import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema.ts and committed; `ctl migrate` applies them to either
// PostgreSQL (DATABASE_URL) or the embedded PGlite store.
export default defineConfig({
  schema: "./db/schema.ts",
  out: "./db/migrations",
  dialect: "postgresql",
  strict: true,
  verbose: true,
});
