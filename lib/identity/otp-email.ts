import { OTP_TTL_MS } from "./otp-code";

/** The code email, Spanish first (the users are in Colombia), English below. */
export function otpEmail(code: string): { subject: string; text: string; html: string } {
  const minutes = OTP_TTL_MS / 60_000;
  const text = [
    `Tu código de verificación es ${code}.`,
    `Vence en ${minutes} minutos. Si no lo pediste, ignora este correo.`,
    "",
    `Your verification code is ${code}.`,
    `It expires in ${minutes} minutes. If you did not ask for it, ignore this email.`,
  ].join("\n");
  const html = [
    "<p>Tu código de verificación es:</p>",
    `<p style="font-size:28px;font-weight:bold;letter-spacing:4px">${code}</p>`,
    `<p>Vence en ${minutes} minutos. Si no lo pediste, ignora este correo.</p>`,
    `<p lang="en">Your verification code is ${code}. It expires in ${minutes} minutes. If you did not ask for it, ignore this email.</p>`,
  ].join("\n");
  return { subject: "Tu código de verificación COPm", text, html };
}
