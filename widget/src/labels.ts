// The widget's own words in the languages it ships, each replaceable through the labels option,
// and more languages through labelsFor.

/** Labels are the widget's words, declared for users in svc.d.ts. */
export type Labels = Svc.Labels;

export const defaultLabels: Labels = {
  close: "Close",
  bugTitle: "Title",
  screenshot: "Include a screenshot",
  recording: "Include a recording of this page",
  required: "Please answer this question to go on.",
  requiredMark: "Required",
  pickUpTo: "Pick up to {max}",
  appeared: "A short survey appeared:",
  sending: "Sending your answers…",
  notSent: "Not sent yet: the server cannot be reached. Your answers are kept on this device and sent as soon as it can be.",
  retry: "Try again",
  refused: "Your answers could not be saved.",
  tooLarge: "Your answer is too large to send. Try again without the screenshot or the recording.",
  surveyClosed: "This survey is no longer open. Thank you for your time.",
};

// The words of the other languages shipped, in the order of defaultLabels' keys.
const shipped: Record<string, string[]> = {
  de: [
    "Schließen", "Titel", "Bildschirmfoto anhängen", "Aufzeichnung dieser Seite anhängen",
    "Bitte beantworten Sie diese Frage, um fortzufahren.", "Pflichtfeld", "Bis zu {max} auswählen",
    "Eine kurze Umfrage ist erschienen:", "Ihre Antworten werden gesendet…",
    "Noch nicht gesendet: Der Server ist nicht erreichbar. Ihre Antworten bleiben auf diesem Gerät und werden gesendet, sobald es geht.",
    "Erneut versuchen", "Ihre Antworten konnten nicht gespeichert werden.",
    "Ihre Antwort ist zu groß. Versuchen Sie es ohne Bildschirmfoto oder Aufzeichnung.",
    "Diese Umfrage ist nicht mehr offen. Danke für Ihre Zeit.",
  ],
  fr: [
    "Fermer", "Titre", "Joindre une capture d’écran", "Joindre un enregistrement de cette page",
    "Veuillez répondre à cette question pour continuer.", "Obligatoire", "Choisissez-en jusqu’à {max}",
    "Une courte enquête est apparue :", "Envoi de vos réponses…",
    "Pas encore envoyé : le serveur est injoignable. Vos réponses restent sur cet appareil et seront envoyées dès que possible.",
    "Réessayer", "Vos réponses n’ont pas pu être enregistrées.",
    "Votre réponse est trop volumineuse. Réessayez sans la capture ni l’enregistrement.",
    "Cette enquête n’est plus ouverte. Merci de votre temps.",
  ],
  es: [
    "Cerrar", "Título", "Incluir una captura de pantalla", "Incluir una grabación de esta página",
    "Responde a esta pregunta para continuar.", "Obligatoria", "Elige hasta {max}",
    "Ha aparecido una breve encuesta:", "Enviando tus respuestas…",
    "Aún no enviado: no se puede contactar con el servidor. Tus respuestas se guardan en este dispositivo y se enviarán en cuanto sea posible.",
    "Reintentar", "No se pudieron guardar tus respuestas.",
    "Tu respuesta es demasiado grande. Inténtalo sin la captura ni la grabación.",
    "Esta encuesta ya no está abierta. Gracias por tu tiempo.",
  ],
  ar: [
    "إغلاق", "العنوان", "إرفاق لقطة شاشة", "إرفاق تسجيل لهذه الصفحة",
    "يرجى الإجابة عن هذا السؤال للمتابعة.", "مطلوب", "اختر حتى {max}",
    "ظهر استطلاع قصير:", "جارٍ إرسال إجاباتك…",
    "لم تُرسل بعد: تعذّر الوصول إلى الخادم. إجاباتك محفوظة على هذا الجهاز وستُرسل حالما يمكن ذلك.",
    "أعد المحاولة", "تعذّر حفظ إجاباتك.",
    "إجابتك أكبر من أن تُرسل. أعد المحاولة دون لقطة الشاشة أو التسجيل.",
    "لم يعد هذا الاستطلاع مفتوحًا. شكرًا لوقتك.",
  ],
};

/** rightToLeft tells whether a language tag's language is written right to left. */
export function rightToLeft(tag: string): boolean {
  return ["ar", "dv", "fa", "he", "ks", "ku", "ps", "sd", "ug", "ur", "yi", "ckb"].includes(tag.split("-")[0].toLowerCase());
}

// strings copies the non-empty strings of given over out's keys.
function strings(out: Labels, given: unknown): void {
  if (!given || typeof given !== "object") return;
  for (const k of Object.keys(out) as (keyof Labels)[]) {
    const v = (given as Record<string, unknown>)[k];
    if (typeof v === "string" && v) out[k] = v;
  }
}

/**
 * mergeLabels returns the widget's words in lang ("de-AT" finds "de"): the page's own for it
 * (labelsFor), else the shipped ones, else English; then the labels option over them.
 */
export function mergeLabels(given: unknown, lang?: string, labelsFor?: Record<string, Partial<Labels>>): Labels {
  const out: Labels = { ...defaultLabels };
  const keys = Object.keys(out) as (keyof Labels)[];
  for (let tag = (lang ?? "").toLowerCase(); tag; tag = tag.slice(0, Math.max(0, tag.lastIndexOf("-")))) {
    const own = labelsFor && Object.keys(labelsFor).find((k) => k.toLowerCase() === tag);
    if (own) {
      strings(out, labelsFor[own]);
      break;
    }
    const words = shipped[tag];
    if (words) {
      keys.forEach((k, i) => (out[k] = words[i]));
      break;
    }
  }
  strings(out, given);
  return out;
}
