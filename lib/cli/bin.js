#!/usr/bin/env node
// Package `bin` entry for `ctl`: registers tsx's loader (TypeScript + tsconfig paths) and runs the
// CLI from source, so the installed command and `npm run ctl` are the same code.
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
