import { numeric } from "drizzle-orm/pg-core";

/** Token amounts in atomic units: numeric(78,0) holds any uint256; bigint in TypeScript. */
export function units(name: string) {
  return numeric(name, { precision: 78, scale: 0, mode: "bigint" });
}
