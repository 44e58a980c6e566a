import { Logger } from "@aws-lambda-powertools/logger";

/** One logger per execution environment; the service name and level come from the Powertools environment. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? "order-tools" });
