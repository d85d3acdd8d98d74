export * from "./api-keys";
export * from "./integrations";
export * from "./job-deliveries";
export * from "./organizations";
export * from "./settlement-events";
export * from "./settlement-orders";
export * from "./settlement-quotes";
export * from "./settlement-transactions";
