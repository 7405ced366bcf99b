// The words of widget/questions.js, in the languages the widget ships, each replaceable through
// Svc.show's labels option (and more languages through labelsFor), as the widget's own words are
// (labels.ts). They live here, not in widget.js, which every survey loads.

export interface Words {
  thumbsUp: string;
  thumbsDown: string;
  rankHint: string;
  moveUp: string;
  moveDown: string;
  moved: string;
  dismiss: string;
  everyRow: string;
  fieldRequired: string;
  badEmail: string;
  badPhone: string;
  name: string;
  email: string;
  phone: string;
  company: string;
  address: string;
}

const english: Words = {
  thumbsUp: "Thumbs up",
  thumbsDown: "Thumbs down",
  rankHint: "Put them in order, the first at the top, with the Move up and Move down buttons.",
  moveUp: "Move {item} up",
  moveDown: "Move {item} down",
  moved: "{item}: position {n} of {total}",
  dismiss: "No thanks",
  everyRow: "Please answer every row to go on.",
  fieldRequired: "this field is required.",
  badEmail: "please enter an e-mail address such as name@example.com.",
  badPhone: "please enter a phone number: digits, with spaces, dashes or a leading +.",
  name: "Name",
  email: "E-mail",
  phone: "Phone",
  company: "Company",
  address: "Address",
};

// The other languages' words, in the order of english's keys.
const shipped: Record<string, string[]> = {
  de: [
    "Daumen hoch", "Daumen runter", "Bringen Sie sie mit den Schaltflächen Nach oben und Nach unten in eine Reihenfolge, das Erste oben.",
    "{item} nach oben", "{item} nach unten", "{item}: Platz {n} von {total}", "Nein danke",
    "Bitte beantworten Sie jede Zeile, um fortzufahren.", "dieses Feld ist erforderlich.",
    "bitte geben Sie eine E-Mail-Adresse wie name@example.com ein.", "bitte geben Sie eine Telefonnummer ein: Ziffern, mit Leerzeichen, Bindestrichen oder einem führenden +.",
    "Name", "E-Mail", "Telefon", "Firma", "Adresse",
  ],
  fr: [
    "Pouce levé", "Pouce baissé", "Classez-les, le premier en haut, avec les boutons Monter et Descendre.",
    "Monter {item}", "Descendre {item}", "{item} : position {n} sur {total}", "Non merci",
    "Veuillez répondre à chaque ligne pour continuer.", "ce champ est obligatoire.",
    "veuillez saisir une adresse e-mail comme nom@example.com.", "veuillez saisir un numéro de téléphone : des chiffres, avec espaces, tirets ou un + au début.",
    "Nom", "E-mail", "Téléphone", "Entreprise", "Adresse",
  ],
  es: [
    "Pulgar arriba", "Pulgar abajo", "Ordénalos, el primero arriba, con los botones Subir y Bajar.",
    "Subir {item}", "Bajar {item}", "{item}: posición {n} de {total}", "No, gracias",
    "Responde a cada fila para continuar.", "este campo es obligatorio.",
    "introduce un correo electrónico como nombre@example.com.", "introduce un número de teléfono: dígitos, con espacios, guiones o un + inicial.",
    "Nombre", "Correo electrónico", "Teléfono", "Empresa", "Dirección",
  ],
  ar: [
    "إعجاب", "عدم إعجاب", "رتّبها، الأول في الأعلى، باستخدام زرَّي تحريك للأعلى وتحريك للأسفل.",
    "تحريك {item} للأعلى", "تحريك {item} للأسفل", "{item}: المرتبة {n} من {total}", "لا، شكرًا",
    "يرجى الإجابة عن كل صف للمتابعة.", "هذا الحقل مطلوب.",
    "يرجى إدخال بريد إلكتروني مثل name@example.com.", "يرجى إدخال رقم هاتف: أرقام مع مسافات أو شرطات أو + في البداية.",
    "الاسم", "البريد الإلكتروني", "الهاتف", "الشركة", "العنوان",
  ],
};

// strings copies the non-empty strings of given over out's keys.
function strings(out: Words, given: unknown): void {
  if (!given || typeof given !== "object") return;
  for (const k of Object.keys(out) as (keyof Words)[]) {
    const v = (given as Record<string, unknown>)[k];
    if (typeof v === "string" && v) out[k] = v;
  }
}

/**
 * words returns the words in lang ("de-AT" finds "de"), as the widget's labels are merged: the
 * page's own for it (labelsFor), else the shipped ones, else English; then the labels option.
 */
export function words(given: unknown, lang?: string, labelsFor?: unknown): Words {
  const out: Words = { ...english };
  const keys = Object.keys(out) as (keyof Words)[];
  const own = labelsFor && typeof labelsFor === "object" ? (labelsFor as Record<string, unknown>) : {};
  for (let tag = (lang ?? "").toLowerCase(); tag; tag = tag.slice(0, Math.max(0, tag.lastIndexOf("-")))) {
    const mine = Object.keys(own).find((k) => k.toLowerCase() === tag);
    if (mine) {
      strings(out, own[mine]);
      break;
    }
    const list = shipped[tag];
    if (list) {
      keys.forEach((k, i) => (out[k] = list[i]));
      break;
    }
  }
  strings(out, given);
  return out;
}
