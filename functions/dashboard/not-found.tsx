import type { DashboardContext } from "../../lib/http/dashboard-frame";
import { renderPage, type Section } from "./layout";
import { commonText } from "./texts";

const TEXT = {
  es: { title: "No encontrado" },
  en: { title: "Not found" },
} as const;

/**
 * The 404 page of a member's page: an integration or a record that is not the member's
 * organization's reads exactly like one that does not exist, and nothing was changed.
 */
export function notFoundPage(c: DashboardContext, options: { section: Section; back: string }) {
  const language = c.get("dashboard").language;
  const t = commonText(language);
  c.status(404);
  return renderPage(c, {
    title: TEXT[language].title,
    section: options.section,
    children: (
      <section class="card">
        <p class="error" role="alert">
          {t.notFound}
        </p>
        <p>
          <a href={options.back}>{t.back}</a>
        </p>
      </section>
    ),
  });
}
