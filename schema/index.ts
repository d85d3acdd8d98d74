export * from "./job-deliveries";
