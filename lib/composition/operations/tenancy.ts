// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/tenancy/. */
export const TENANCY_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/tenancy/admin-add-member"),
    routes: [
      {
        method: "POST",
        path: "/admin/organizations/:organizationId/members",
        operationId: "adminAddOrganizationMember",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-create-api-key"),
    routes: [
      { method: "POST", path: "/admin/integrations/:integrationId/keys", operationId: "adminCreateApiKey" },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-create-integration"),
    routes: [
      {
        method: "POST",
        path: "/admin/organizations/:organizationId/integrations",
        operationId: "adminCreateIntegration",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-create-organization"),
    routes: [
      { method: "POST", path: "/admin/organizations", operationId: "adminCreateOrganization" },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-get-organization"),
    routes: [
      { method: "GET", path: "/admin/organizations/:organizationId", operationId: "adminGetOrganization" },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-list-api-keys"),
    routes: [
      { method: "GET", path: "/admin/integrations/:integrationId/keys", operationId: "adminListApiKeys" },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-list-members"),
    routes: [
      {
        method: "GET",
        path: "/admin/organizations/:organizationId/members",
        operationId: "adminListOrganizationMembers",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-list-organizations"),
    routes: [
      { method: "GET", path: "/admin/organizations", operationId: "adminListOrganizations" },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-reset-member-two-factor"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/organizations/:organizationId/members/:memberId/two-factor",
        operationId: "adminResetOrganizationMemberTwoFactor",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-revoke-api-key"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/integrations/:integrationId/keys/:keyId",
        operationId: "adminRevokeApiKey",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-revoke-member"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/organizations/:organizationId/members/:memberId",
        operationId: "adminRevokeOrganizationMember",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-update-api-key"),
    routes: [
      {
        method: "PATCH",
        path: "/admin/integrations/:integrationId/keys/:keyId",
        operationId: "adminUpdateApiKey",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-update-member"),
    routes: [
      {
        method: "PATCH",
        path: "/admin/organizations/:organizationId/members/:memberId",
        operationId: "adminUpdateOrganizationMember",
      },
    ],
  },
  {
    load: () => import("../../../functions/tenancy/admin-update-organization"),
    routes: [
      {
        method: "PATCH",
        path: "/admin/organizations/:organizationId",
        operationId: "adminUpdateOrganization",
      },
    ],
  },
];
