import type { ListenPort } from "./listen-port";

/** The worker's port when PORT is unset; the familiar ports below are this stack's. */
export const DEFAULT_PORT = 8787;

/** The default stack's ports, as people, bookmarks and wallets know them. */
const FAMILIAR = {
  mailbox: 8025,
  kyc: 8026,
  breb: 8027,
  circle: 8028,
  aggregator: 8029,
  source: 8545,
  intermediate: 8546,
  destination: 8547,
  sourceB: 8548,
  /** workerd's DevTools inspector, wrangler's own default. */
  inspector: 9229,
} as const;

type StackPortName = keyof typeof FAMILIAR;
export type StackPorts = Record<StackPortName, ListenPort>;

/**
 * Every port of a local stack, from its worker's port: each familiar port moved by as much as the
 * worker's is moved from 8787 (PORT=8797: the mailbox on 8035, the chains on 8555–8558), so a second
 * stack lands on ports of its own, the same on every start. Each is a preference, not a demand: one
 * that something else holds (another stack's, for a PORT a few apart) gives way to a free port, and
 * `npm run dev` prints where everything ended up.
 */
export function stackPorts(port: number): StackPorts {
  const shift = port - DEFAULT_PORT;
  const entries = Object.entries(FAMILIAR).map(([name, familiar]) => {
    const moved = familiar + shift;
    // Below 1024 needs privileges; 0 lets the server pick.
    return [name, { prefer: moved >= 1024 && moved <= 65_535 ? moved : 0 }];
  });
  return Object.fromEntries(entries) as StackPorts;
}
