// The inbox as HTML for a browser. Every value comes from a sender and is escaped; an email's own
// HTML is shown only inside a sandboxed iframe, so its scripts and forms cannot run.

import { escapeHtml } from "../../lib/kernel/html-text";
import type { StoredEmail } from "./types";

/** Sent with every page: nothing on them needs scripts, plugins or form posts. */
export const PAGE_SECURITY_POLICY =
  "script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

export function inboxPage(emails: StoredEmail[]): string {
  const rows = emails
    .map(
      (email) => `<tr>
  <td><time datetime="${escapeHtml(email.createdAt)}">${escapeHtml(email.createdAt)}</time></td>
  <td>${escapeHtml(email.to.join(", "))}</td>
  <td><a href="${escapeHtml(emailPath(email.id))}">${escapeHtml(email.subject || "(no subject)")}</a></td>
</tr>`,
    )
    .join("\n");
  const body =
    emails.length === 0
      ? "<p>No emails yet.</p>"
      : `<table>
<thead><tr><th>Time</th><th>To</th><th>Subject</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  return layout(
    "Local mailbox",
    `<h1>Local mailbox</h1>\n<p>${emails.length} email(s), newest first.</p>\n${body}`,
  );
}

export function emailPage(email: StoredEmail): string {
  const headers: Array<[string, string]> = [
    ["From", email.from],
    ["To", email.to.join(", ")],
    ["Subject", email.subject],
    ["Date", email.createdAt],
    ["Id", email.id],
  ];
  const headerRows = headers
    .map(([name, value]) => `<tr><th>${name}</th><td>${escapeHtml(value)}</td></tr>`)
    .join("\n");
  // srcdoc is an attribute: escaping it once gives the iframe the email's HTML exactly as sent.
  return layout(
    email.subject || "(no subject)",
    `<p><a href="/">&larr; Inbox</a></p>
<table>
${headerRows}
</table>
<h2>Text</h2>
<pre>${escapeHtml(email.text)}</pre>
<h2>HTML</h2>
<iframe sandbox="" title="HTML body" srcdoc="${escapeHtml(email.html)}"></iframe>`,
  );
}

function emailPath(id: string): string {
  return `/emails/${encodeURIComponent(id)}`;
}

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.25rem 0.75rem 0.25rem 0; vertical-align: top; }
pre { background: #f4f4f4; padding: 1rem; white-space: pre-wrap; }
iframe { width: 100%; height: 32rem; border: 1px solid #ccc; }
</style>
</head>
<body>
${content}
</body>
</html>
`;
}
