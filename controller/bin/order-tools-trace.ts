#!/usr/bin/env node
/** The package's `order-tools-trace` command (controller/trace-command.ts says what it prints). */
import { traceCommand } from "#controller/trace-command";

process.exitCode = await traceCommand(process.argv.slice(2), {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
