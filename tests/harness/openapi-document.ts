/** The parts of an OpenAPI document the tests read. */
export interface OpenApiDocument {
  openapi: string;
  info: { version: string; title: string };
  security?: Array<Record<string, string[]>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
  paths: Record<string, Record<string, unknown>>;
}
