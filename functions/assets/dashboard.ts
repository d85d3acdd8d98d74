// The partner dashboard's one client script (a static asset of this worker, never a CDN; wrangler's
// build step, dev/docs-assets.mjs, compiles it to /dashboard/dashboard.js). Every page works without
// it; it adds three conveniences: times shown in the viewer's locale and time zone, a copy button
// next to a secret shown once, and a confirmation before a destructive form is sent.
const language = document.documentElement.lang || undefined;
const format = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium" });
for (const time of document.querySelectorAll<HTMLTimeElement>("time[datetime]")) {
  const at = new Date(time.dateTime);
  if (!Number.isNaN(at.getTime())) {
    time.title = time.dateTime;
    time.textContent = format.format(at);
  }
}

const { copy, copied } = document.body.dataset;
for (const target of document.querySelectorAll<HTMLElement>("[data-copy-target]")) {
  const source = document.getElementById(target.dataset.copyTarget ?? "");
  if (!source || !navigator.clipboard) continue;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.textContent = copy || "Copy";
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText((source.textContent ?? "").trim());
    button.textContent = copied || "Copied";
  });
  target.append(button);
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-confirm]")) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}
