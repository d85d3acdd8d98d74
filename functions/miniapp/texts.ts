import { type Language, preferredLanguage } from "../../lib/kernel/errors/error-body";

/**
 * Every word the miniapp shows, in Spanish (the default) and English. The page renders `page`; the
 * client script receives `client` in a JSON block, so both speak the page's language.
 */
export interface MiniappText {
  page: {
    title: string;
    lead: string;
    otherLanguage: string;
    otherLanguageLabel: string;
    noscript: string;
    mockBadge: string;
    progress: string;
    identityHeading: string;
    identityIntro: string;
    connect: string;
    walletLabel: string;
    walletHint: string;
    emailLabel: string;
    sendCode: string;
    codeHeading: string;
    codeLabel: string;
    codeHint: string;
    verify: string;
    resend: string;
    kycHeading: string;
    kycRecheck: string;
    kycLink: string;
    termsLink: string;
    continue: string;
    amountHeading: string;
    amountLabel: string;
    amountHint: string;
    tokenLegend: string;
    getQuote: string;
    quoteHeading: string;
    quoteReceives: string;
    quoteRate: string;
    quoteServiceFee: string;
    quoteProviderFee: string;
    quoteTotal: string;
    quoteValid: string;
    changeAmount: string;
    recipientHeading: string;
    keyLabel: string;
    keyHint: string;
    ownerLabel: string;
    ownerHint: string;
    createPayout: string;
    mismatchHeading: string;
    mismatchBody: string;
    startOver: string;
    depositHeading: string;
    depositIntro: string;
    depositTotal: string;
    depositChain: string;
    depositTo: string;
    depositStepsHeading: string;
    stepApprove: string;
    stepDeposit: string;
    pay: string;
    statusHeading: string;
    statusPayout: string;
    statusTransaction: string;
    statusTimeline: string;
    newPayout: string;
  };
  client: Record<string, string>;
}

const es: MiniappText = {
  page: {
    title: "Envía pesos por BRE-B",
    lead: "Paga a cualquier llave BRE-B en Colombia desde tu billetera, con USDC o COPm.",
    otherLanguage: "English",
    otherLanguageLabel: "Read this page in English",
    noscript:
      "Esta página necesita JavaScript y una billetera web3 (por ejemplo, el navegador de tu billetera).",
    mockBadge: "Modo de prueba: nada de esto mueve dinero real.",
    progress: "Paso {step} de 8",
    identityHeading: "Tu billetera y tu correo",
    identityIntro:
      "Conecta la billetera desde la que vas a pagar y escribe tu correo: te enviaremos un código.",
    connect: "Conectar billetera",
    walletLabel: "Dirección de tu billetera",
    walletHint: "Se llena al conectar tu billetera.",
    emailLabel: "Correo electrónico",
    sendCode: "Enviar código",
    codeHeading: "Código de verificación",
    codeLabel: "Código de 6 dígitos",
    codeHint: "Revisa tu correo. El código vence en 10 minutos.",
    verify: "Verificar",
    resend: "Enviar otro código",
    kycHeading: "Verificación de identidad",
    kycRecheck: "Consultar de nuevo",
    kycLink: "Completar la verificación",
    termsLink: "Leer los términos",
    continue: "Continuar",
    amountHeading: "¿Cuánto quieres enviar?",
    amountLabel: "Monto que recibe el destinatario (pesos colombianos, COP)",
    amountHint: "Pesos enteros, desde 4.000 COP.",
    tokenLegend: "Pagar con",
    getQuote: "Cotizar",
    quoteHeading: "Tu cotización",
    quoteReceives: "El destinatario recibe",
    quoteRate: "Tasa",
    quoteServiceFee: "Comisión del servicio",
    quoteProviderFee: "Comisión del proveedor (incluida)",
    quoteTotal: "Total a pagar",
    quoteValid: "Válida por",
    changeAmount: "Cambiar el monto",
    recipientHeading: "¿A quién le envías?",
    keyLabel: "Llave BRE-B",
    keyHint: "Celular (3001234567), correo, cédula, @alias o código de comercio.",
    ownerLabel: "Nombre del titular de la cuenta",
    ownerHint: "Tal como aparece en la cuenta: lo comprobamos antes de que pagues.",
    createPayout: "Crear el pago",
    mismatchHeading: "No envíes fondos",
    mismatchBody:
      "La llave BRE-B no corresponde al titular que escribiste. No se creó ningún pago y no debes enviar nada. Revisa la llave y el nombre con el destinatario antes de intentarlo de nuevo.",
    startOver: "Empezar de nuevo",
    depositHeading: "Paga desde tu billetera",
    depositIntro:
      "Tu billetera te pedirá dos firmas: primero autorizar el monto y luego el depósito. No cambies nada en ellas.",
    depositTotal: "Vas a pagar",
    depositChain: "Red",
    depositTo: "Destino",
    depositStepsHeading: "Transacciones",
    stepApprove: "Autorizar el monto",
    stepDeposit: "Depositar",
    pay: "Pagar con mi billetera",
    statusHeading: "Estado del pago",
    statusPayout: "Pago",
    statusTransaction: "Transacción BRE-B",
    statusTimeline: "Historial",
    newPayout: "Hacer otro pago",
  },
  client: {
    noWallet:
      "No encontramos una billetera en este navegador. Abre esta página desde el navegador de tu billetera.",
    walletRejected: "Rechazaste la solicitud en tu billetera.",
    walletError: "Tu billetera respondió con un error: {message}",
    connectFirst: "Conecta tu billetera primero.",
    emailRequired: "Escribe tu correo electrónico.",
    codeSentTo: "Enviamos un código a {email}.",
    debugCode: "Modo de prueba: tu código es {code}",
    codeRequired: "Escribe el código de 6 dígitos.",
    kyc_approved: "Identidad verificada: puedes enviar pagos.",
    kyc_pending: "Tu verificación está en revisión. Te avisamos aquí cuando cambie.",
    kyc_not_started: "Aún no has verificado tu identidad. Completa la verificación para continuar.",
    kyc_rejected: "Tu verificación fue rechazada. No puedes enviar pagos con esta billetera.",
    amountRequired: "Escribe un monto en pesos enteros.",
    recipientRequired: "Escribe la llave BRE-B y el nombre del titular.",
    validFor: "{minutes} min",
    payoutDeadline: "Tienes {minutes} minutos para pagar.",
    wrongAccount:
      "La cuenta conectada ({connected}) no es la que verificaste ({verified}). Cambia de cuenta en tu billetera.",
    switchChain: "Cambiando tu billetera a la red {chain}…",
    unknownChain: "Tu billetera no conoce la red {chain} (id {chainId}). Agrégala y vuelve a intentarlo.",
    stillWrongChain: "Tu billetera sigue en otra red. Cámbiala a {chain} (id {chainId}).",
    stepWaitingWallet: "Confírmalo en tu billetera…",
    stepWaitingReceipt: "Esperando la confirmación de la red…",
    stepDone: "Listo",
    stepFailed: "La transacción falló en la red. No se movieron tus fondos de este paso.",
    confirming: "Confirmando tu depósito…",
    confirmRetry: "Tu depósito aún no tiene sus confirmaciones; reintentamos en {seconds} s.",
    network: "No pudimos conectar con el servicio. Revisa tu conexión e inténtalo de nuevo.",
    status_awaiting_deposit: "Esperando tu depósito",
    status_deposit_confirmed: "Depósito confirmado: enviando el pago",
    status_processing: "En proceso",
    status_completed: "Completado: el destinatario recibió los pesos",
    status_failed: "Falló: el proveedor no pudo pagar; te devolverá el depósito",
    status_refunded: "Reembolsado: tu depósito volvió a tu billetera",
    status_expired: "Vencido: no llegó el depósito a tiempo",
    status_refund_required: "El depósito llegó tarde: lo devolveremos a tu billetera",
    fee_service: "Comisión del servicio",
    fee_provider_developer: "Comisión del proveedor (incluida)",
  },
};

const en: MiniappText = {
  page: {
    title: "Send pesos through BRE-B",
    lead: "Pay any BRE-B key in Colombia from your wallet, with USDC or COPm.",
    otherLanguage: "Español",
    otherLanguageLabel: "Ver esta página en español",
    noscript: "This page needs JavaScript and a web3 wallet (for example, your wallet's browser).",
    mockBadge: "Test mode: none of this moves real money.",
    progress: "Step {step} of 8",
    identityHeading: "Your wallet and your email",
    identityIntro: "Connect the wallet you will pay from and enter your email: we will send you a code.",
    connect: "Connect wallet",
    walletLabel: "Your wallet address",
    walletHint: "Filled in when you connect your wallet.",
    emailLabel: "Email",
    sendCode: "Send code",
    codeHeading: "Verification code",
    codeLabel: "6-digit code",
    codeHint: "Check your email. The code expires in 10 minutes.",
    verify: "Verify",
    resend: "Send another code",
    kycHeading: "Identity verification",
    kycRecheck: "Check again",
    kycLink: "Complete the verification",
    termsLink: "Read the terms",
    continue: "Continue",
    amountHeading: "How much do you want to send?",
    amountLabel: "Amount the recipient gets (Colombian pesos, COP)",
    amountHint: "Whole pesos, from 4,000 COP.",
    tokenLegend: "Pay with",
    getQuote: "Get a quote",
    quoteHeading: "Your quote",
    quoteReceives: "The recipient gets",
    quoteRate: "Rate",
    quoteServiceFee: "Service fee",
    quoteProviderFee: "Provider fee (included)",
    quoteTotal: "Total to pay",
    quoteValid: "Valid for",
    changeAmount: "Change the amount",
    recipientHeading: "Who are you paying?",
    keyLabel: "BRE-B key",
    keyHint: "Mobile (3001234567), email, national ID, @alias or merchant code.",
    ownerLabel: "Account owner's name",
    ownerHint: "As it appears on the account: we check it before you pay.",
    createPayout: "Create the payout",
    mismatchHeading: "Do not send any funds",
    mismatchBody:
      "The BRE-B key does not belong to the owner you named. No payout was created and you must send nothing. Check the key and the name with the recipient before trying again.",
    startOver: "Start over",
    depositHeading: "Pay from your wallet",
    depositIntro:
      "Your wallet will ask you to sign twice: first to approve the amount, then the deposit. Change nothing in them.",
    depositTotal: "You pay",
    depositChain: "Network",
    depositTo: "Recipient",
    depositStepsHeading: "Transactions",
    stepApprove: "Approve the amount",
    stepDeposit: "Deposit",
    pay: "Pay with my wallet",
    statusHeading: "Payout status",
    statusPayout: "Payout",
    statusTransaction: "BRE-B transaction",
    statusTimeline: "History",
    newPayout: "Make another payout",
  },
  client: {
    noWallet: "No wallet was found in this browser. Open this page from your wallet's browser.",
    walletRejected: "You rejected the request in your wallet.",
    walletError: "Your wallet answered with an error: {message}",
    connectFirst: "Connect your wallet first.",
    emailRequired: "Enter your email.",
    codeSentTo: "We sent a code to {email}.",
    debugCode: "Test mode: your code is {code}",
    codeRequired: "Enter the 6-digit code.",
    kyc_approved: "Identity verified: you can send payouts.",
    kyc_pending: "Your verification is under review. This page updates when it changes.",
    kyc_not_started: "You have not verified your identity yet. Complete the verification to continue.",
    kyc_rejected: "Your verification was rejected. You cannot send payouts with this wallet.",
    amountRequired: "Enter an amount in whole pesos.",
    recipientRequired: "Enter the BRE-B key and the owner's name.",
    validFor: "{minutes} min",
    payoutDeadline: "You have {minutes} minutes to pay.",
    wrongAccount:
      "The connected account ({connected}) is not the one you verified ({verified}). Switch accounts in your wallet.",
    switchChain: "Switching your wallet to {chain}…",
    unknownChain: "Your wallet does not know the {chain} network (id {chainId}). Add it and try again.",
    stillWrongChain: "Your wallet is still on another network. Switch it to {chain} (id {chainId}).",
    stepWaitingWallet: "Confirm it in your wallet…",
    stepWaitingReceipt: "Waiting for the network to confirm…",
    stepDone: "Done",
    stepFailed: "The transaction failed on chain. This step moved none of your funds.",
    confirming: "Confirming your deposit…",
    confirmRetry: "Your deposit does not have its confirmations yet; retrying in {seconds} s.",
    network: "We could not reach the service. Check your connection and try again.",
    status_awaiting_deposit: "Waiting for your deposit",
    status_deposit_confirmed: "Deposit confirmed: sending the payout",
    status_processing: "Processing",
    status_completed: "Completed: the recipient was paid",
    status_failed: "Failed: the provider could not pay and will refund your deposit",
    status_refunded: "Refunded: your deposit is back in your wallet",
    status_expired: "Expired: the deposit did not arrive in time",
    status_refund_required: "The deposit arrived late: we will return it to your wallet",
    fee_service: "Service fee",
    fee_provider_developer: "Provider fee (included)",
  },
};

export const MINIAPP_TEXT: Record<Language, MiniappText> = { es, en };

/** `?lang=es|en` first, then Accept-Language, then Spanish. */
export function miniappLanguage(lang: string | undefined, acceptLanguage: string | undefined): Language {
  if (lang === "es" || lang === "en") return lang;
  return preferredLanguage(acceptLanguage);
}
