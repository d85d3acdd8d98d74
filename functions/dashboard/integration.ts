import { type DashboardContext, member } from "../../lib/http/dashboard-frame";
import { callerOfIntegration, DASHBOARD_KEY_ID } from "../../lib/tenancy/authenticate";
import type { PartnerContext } from "../../lib/tenancy/caller";
import { listIntegrations } from "../../lib/tenancy/integrations";
import type { Integration } from "../../lib/tenancy/organizations";

export interface IntegrationScope {
  all: Integration[];
  /** Absent when the organization has none. */
  current?: Integration;
  /** The domain verbs' context acting for `current`, as its API key would. */
  partner?: PartnerContext;
}

/**
 * The integration a page reads: `?integration=` when it is one of the member's organization's, the
 * first one when the query names none. One of another organization is `undefined`: the page answers
 * 404, the same as an id that does not exist, so no page tells whether another organization's id is real.
 */
export async function integrationScope(c: DashboardContext): Promise<IntegrationScope | undefined> {
  const services = c.get("services");
  const all = await listIntegrations(services, member(c).organizationId);
  const asked = c.req.query("integration");
  const current = asked ? all.find((integration) => integration.id === asked) : all[0];
  if (asked && !current) return undefined;
  if (!current) return { all };
  const caller = await callerOfIntegration(services, current.id, DASHBOARD_KEY_ID);
  if (!caller) return undefined;
  return { all, current, partner: { ...services, caller } };
}
