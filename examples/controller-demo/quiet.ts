/**
 * Imported first by the demo and the controller benchmark: when they start the stack in their own process, the
 * handlers' log lines and EMF metrics would bury what they print. Module-scope loggers read these on import,
 * so this must run before anything imports the handlers.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= "ERROR";
process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
process.env.POWERTOOLS_SERVICE_NAME ??= "order-tools-local";
