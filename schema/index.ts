export * from "./api-keys";
export * from "./integrations";
export * from "./job-deliveries";
export * from "./organizations";
