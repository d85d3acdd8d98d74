import type { MemberRole } from "../../lib/tenancy/roles";

/** The members page's words, in each dashboard language; every role has its name in both. */
export const TEXT = {
  es: {
    title: "Miembros",
    intro:
      "Quién puede entrar al panel de esta organización y con qué rol. Entran con su correo y un código; la matriz de roles está en la documentación (roles).",
    inviteTitle: "Invitar por correo",
    email: "Correo",
    role: "Rol",
    invite: "Invitar",
    listTitle: "Miembros activos",
    twoFactor: "Dos pasos",
    added: "Agregado (UTC)",
    actions: "Acciones",
    on: "Activo",
    off: "No",
    you: "(tú)",
    changeRole: "Cambiar rol",
    remove: "Quitar",
    resetTwoFactor: "Restablecer dos pasos",
    doneInvited: "Invitación enviada a {email}.",
    doneAlready: "{email} ya es miembro: nada cambió.",
    doneRole: "Rol cambiado.",
    doneRemoved: "Miembro quitado: sus sesiones terminaron.",
    doneReset: "Inicio de sesión en dos pasos restablecido: sus sesiones terminaron.",
    roles: { owner: "Propietario", admin: "Administrador", developer: "Desarrollador", viewer: "Lector" },
  },
  en: {
    title: "Members",
    intro:
      "Who may sign in to this organization's dashboard, and with which role. They sign in with their email and a code; the role matrix is in the docs (roles).",
    inviteTitle: "Invite by email",
    email: "Email",
    role: "Role",
    invite: "Invite",
    listTitle: "Active members",
    twoFactor: "Two-factor",
    added: "Added (UTC)",
    actions: "Actions",
    on: "On",
    off: "Off",
    you: "(you)",
    changeRole: "Change role",
    remove: "Remove",
    resetTwoFactor: "Reset two-factor",
    doneInvited: "Invitation sent to {email}.",
    doneAlready: "{email} is already a member: nothing changed.",
    doneRole: "Role changed.",
    doneRemoved: "Member removed: their sessions ended.",
    doneReset: "Two-factor sign-in reset: their sessions ended.",
    roles: { owner: "Owner", admin: "Admin", developer: "Developer", viewer: "Viewer" },
  },
} as const satisfies Record<string, { roles: Record<MemberRole, string> } & Record<string, unknown>>;

export type MembersText = (typeof TEXT)[keyof typeof TEXT];
