/**
 * One outcome a vendor can report of a leg, what the service does, and where the order ends: a row
 * of a leg's table of outcomes (bridge.ts, exchange.ts), which the leg runs and docs/outcomes.md shows.
 */
export interface LegOutcome {
  /** What the vendor says, in its own words. */
  reported: string;
  does: string;
  endsIn: string;
}
