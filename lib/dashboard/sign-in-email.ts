import { OTP_TTL_MS } from "../identity/otp-code";

/** The dashboard sign-in email, Spanish first, English below; it names no organization. */
export function signInEmail(code: string): { subject: string; text: string; html: string } {
  const minutes = OTP_TTL_MS / 60_000;
  const text = [
    `Tu código para entrar al panel de socios COPm es ${code}.`,
    `Vence en ${minutes} minutos. Si no lo pediste, ignora este correo: nadie entra sin él.`,
    "",
    `Your COPm partner dashboard sign-in code is ${code}.`,
    `It expires in ${minutes} minutes. If you did not ask for it, ignore this email: nobody signs in without it.`,
  ].join("\n");
  const html = [
    "<p>Tu código para entrar al panel de socios COPm es:</p>",
    `<p style="font-size:28px;font-weight:bold;letter-spacing:4px">${code}</p>`,
    `<p>Vence en ${minutes} minutos. Si no lo pediste, ignora este correo: nadie entra sin él.</p>`,
    `<p lang="en">Your COPm partner dashboard sign-in code is ${code}. It expires in ${minutes} minutes. If you did not ask for it, ignore this email.</p>`,
  ].join("\n");
  return { subject: "Tu código para el panel COPm", text, html };
}
