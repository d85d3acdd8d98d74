// The sandbox's hosted pages: KYC (approve or reject), terms, and the answers to a decision.
// Every value shown is escaped; the email is shown masked, as a hosted page shown to anyone with the link should.

import type { SandboxCustomer } from "./customers";

export function kycPage(customer: SandboxCustomer, publicBase: string): string {
  const action = `${publicBase}/kyc/${encodeURIComponent(customer.customerId)}/decision`;
  const decisionForm = (decision: "approved" | "rejected", label: string) => `
    <form method="post" action="${escapeHtml(action)}">
      <input type="hidden" name="decision" value="${decision}">
      <button type="submit">${label}</button>
    </form>`;
  return layout(
    "Verificación de identidad · Identity verification",
    `<h1>Verificación de identidad <span lang="en">/ Identity verification</span></h1>
    <p>Proveedor KYC de prueba: no se verifica ningún documento. <span lang="en">Sandbox KYC provider: no documents are checked.</span></p>
    <dl>
      <dt>Correo <span lang="en">/ Email</span></dt>
      <dd>${escapeHtml(maskEmail(customer.email))}</dd>
      <dt>Estado <span lang="en">/ Status</span></dt>
      <dd id="status">${escapeHtml(customer.status)}</dd>
    </dl>
    <section aria-labelledby="decide">
      <h2 id="decide">Decisión <span lang="en">/ Decision</span></h2>
      ${decisionForm("approved", 'Aprobar <span lang="en">/ Approve</span>')}
      ${decisionForm("rejected", 'Rechazar <span lang="en">/ Reject</span>')}
    </section>
    <p><a href="${escapeHtml(`${publicBase}/terms/${encodeURIComponent(customer.customerId)}`)}">Términos <span lang="en">/ Terms</span></a></p>`,
  );
}

export function termsPage(customer: SandboxCustomer, publicBase: string): string {
  return layout(
    "Términos · Terms",
    `<h1>Términos del servicio <span lang="en">/ Terms of service</span></h1>
    <p>Este es un proveedor KYC de prueba para desarrollo local. Los datos viven solo en memoria y se pierden al reiniciar.</p>
    <p lang="en">This is a sandbox KYC provider for local development. Data lives in memory only and is lost on restart.</p>
    <p><a href="${escapeHtml(`${publicBase}/kyc/${encodeURIComponent(customer.customerId)}`)}">Volver a la verificación <span lang="en">/ Back to verification</span></a></p>`,
  );
}

export function decisionRecordedPage(
  customer: SandboxCustomer,
  publicBase: string,
  callback: { delivered: boolean; attempts: number },
): string {
  const delivery = callback.delivered
    ? 'Notificación enviada. <span lang="en">Callback delivered.</span>'
    : `Notificación no entregada tras ${callback.attempts} intentos. <span lang="en">Callback not delivered after ${callback.attempts} attempts.</span>`;
  return layout(
    "Decisión registrada · Decision recorded",
    `<h1>Decisión registrada <span lang="en">/ Decision recorded</span></h1>
    <p role="status">Estado <span lang="en">/ Status</span>: <strong>${escapeHtml(customer.status)}</strong></p>
    <p>${delivery}</p>
    <p><a href="${escapeHtml(`${publicBase}/kyc/${encodeURIComponent(customer.customerId)}`)}">Volver <span lang="en">/ Back</span></a></p>`,
  );
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/** `juana@example.com` → `j***@example.com`: enough for the user to recognise, not to harvest. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  return `${Array.from(email)[0]}***${email.slice(at)}`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function layout(title: string, main: string): string {
  return `<!doctype html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
    dt { font-weight: 600; }
    form { display: inline-block; margin-right: 0.5rem; }
    button { font-size: 1rem; padding: 0.5rem 1rem; }
  </style>
</head>
<body>
  <main>
    ${main}
  </main>
</body>
</html>
`;
}
