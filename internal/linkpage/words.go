package linkpage

// The pages' own words, in the languages the widget ships: a link page that shows no survey
// speaks the language of the person who opened it, as the survey would.

// Page kinds, each a title and a message.
const (
	NotFound   = "not-found"
	Closed     = "closed"
	BadLink    = "bad-link"
	Expired    = "expired"
	Personal   = "personal"
	Answered   = "answered"
	Down       = "down"
	NoLinks    = "no-links"
	Busy       = "busy"
	BadRequest = "bad-request"
	// Thanks and Dismissed are what the page says once its survey closes.
	Thanks    = "thanks"
	Dismissed = "dismissed"
)

// Languages are the languages the pages speak, English first.
var Languages = []string{"en", "de", "fr", "es", "ar"}

type words struct{ title, message string }

var texts = map[string]map[string]words{
	"en": {
		NotFound:   {"Survey not found", "There is no survey at this address. Check that the link is the one you were sent."},
		Closed:     {"This survey is closed", "It no longer takes answers. Thank you for your time."},
		BadLink:    {"This link is not valid", "It may have been changed or cut short. Open the link exactly as you were sent it."},
		Expired:    {"This link has expired", "Ask whoever sent it to you for a new one."},
		Personal:   {"This survey needs a personal link", "Open the link you were sent to answer it."},
		Answered:   {"Thank you", "You have answered this survey already."},
		Down:       {"The survey cannot be shown right now", "Please try again in a minute."},
		NoLinks:    {"Link surveys are not available here", "This server keeps no link surveys."},
		Busy:       {"Too many requests", "This survey was opened too often from here just now. Please try again in a minute."},
		BadRequest: {"This link cannot be answered", ""},
		Thanks:     {"", "Thank you. You can close this page."},
		Dismissed:  {"", "You closed the survey. Open the link again to answer it."},
	},
	"de": {
		NotFound:   {"Umfrage nicht gefunden", "Unter dieser Adresse gibt es keine Umfrage. Prüfen Sie, ob es der Link ist, den Sie erhalten haben."},
		Closed:     {"Diese Umfrage ist beendet", "Sie nimmt keine Antworten mehr an. Danke für Ihre Zeit."},
		BadLink:    {"Dieser Link ist ungültig", "Er wurde vielleicht verändert oder abgeschnitten. Öffnen Sie den Link genau so, wie Sie ihn erhalten haben."},
		Expired:    {"Dieser Link ist abgelaufen", "Bitten Sie den Absender um einen neuen."},
		Personal:   {"Diese Umfrage braucht einen persönlichen Link", "Öffnen Sie den Link, den Sie erhalten haben, um sie zu beantworten."},
		Answered:   {"Vielen Dank", "Sie haben diese Umfrage bereits beantwortet."},
		Down:       {"Die Umfrage kann gerade nicht angezeigt werden", "Bitte versuchen Sie es in einer Minute noch einmal."},
		NoLinks:    {"Link-Umfragen gibt es hier nicht", "Dieser Server führt keine Link-Umfragen."},
		Busy:       {"Zu viele Anfragen", "Diese Umfrage wurde gerade zu oft von hier geöffnet. Bitte versuchen Sie es in einer Minute noch einmal."},
		BadRequest: {"Dieser Link kann nicht beantwortet werden", ""},
		Thanks:     {"", "Vielen Dank. Sie können diese Seite schließen."},
		Dismissed:  {"", "Sie haben die Umfrage geschlossen. Öffnen Sie den Link erneut, um sie zu beantworten."},
	},
	"fr": {
		NotFound:   {"Enquête introuvable", "Il n’y a pas d’enquête à cette adresse. Vérifiez que c’est bien le lien que vous avez reçu."},
		Closed:     {"Cette enquête est close", "Elle ne reçoit plus de réponses. Merci de votre temps."},
		BadLink:    {"Ce lien n’est pas valide", "Il a peut-être été modifié ou tronqué. Ouvrez le lien exactement tel que vous l’avez reçu."},
		Expired:    {"Ce lien a expiré", "Demandez-en un nouveau à la personne qui vous l’a envoyé."},
		Personal:   {"Cette enquête demande un lien personnel", "Ouvrez le lien que vous avez reçu pour y répondre."},
		Answered:   {"Merci", "Vous avez déjà répondu à cette enquête."},
		Down:       {"L’enquête ne peut pas être affichée pour le moment", "Veuillez réessayer dans une minute."},
		NoLinks:    {"Les enquêtes par lien ne sont pas disponibles ici", "Ce serveur ne tient pas d’enquêtes par lien."},
		Busy:       {"Trop de requêtes", "Cette enquête a été ouverte trop souvent d’ici à l’instant. Veuillez réessayer dans une minute."},
		BadRequest: {"Ce lien ne peut pas recevoir de réponse", ""},
		Thanks:     {"", "Merci. Vous pouvez fermer cette page."},
		Dismissed:  {"", "Vous avez fermé l’enquête. Ouvrez de nouveau le lien pour y répondre."},
	},
	"es": {
		NotFound:   {"Encuesta no encontrada", "No hay ninguna encuesta en esta dirección. Comprueba que es el enlace que recibiste."},
		Closed:     {"Esta encuesta está cerrada", "Ya no acepta respuestas. Gracias por tu tiempo."},
		BadLink:    {"Este enlace no es válido", "Puede que se haya modificado o cortado. Abre el enlace exactamente como lo recibiste."},
		Expired:    {"Este enlace ha caducado", "Pide uno nuevo a quien te lo envió."},
		Personal:   {"Esta encuesta necesita un enlace personal", "Abre el enlace que recibiste para responderla."},
		Answered:   {"Gracias", "Ya has respondido a esta encuesta."},
		Down:       {"La encuesta no se puede mostrar ahora", "Vuelve a intentarlo en un minuto."},
		NoLinks:    {"Aquí no hay encuestas por enlace", "Este servidor no guarda encuestas por enlace."},
		Busy:       {"Demasiadas solicitudes", "Esta encuesta se ha abierto demasiadas veces desde aquí. Vuelve a intentarlo en un minuto."},
		BadRequest: {"Este enlace no se puede responder", ""},
		Thanks:     {"", "Gracias. Puedes cerrar esta página."},
		Dismissed:  {"", "Has cerrado la encuesta. Abre el enlace de nuevo para responderla."},
	},
	"ar": {
		NotFound:   {"الاستطلاع غير موجود", "لا يوجد استطلاع على هذا العنوان. تأكد من أنه الرابط الذي أُرسل إليك."},
		Closed:     {"هذا الاستطلاع مغلق", "لم يعد يقبل إجابات. شكرًا لوقتك."},
		BadLink:    {"هذا الرابط غير صالح", "ربما تم تغييره أو اقتطاعه. افتح الرابط كما أُرسل إليك تمامًا."},
		Expired:    {"انتهت صلاحية هذا الرابط", "اطلب رابطًا جديدًا ممن أرسله إليك."},
		Personal:   {"يتطلب هذا الاستطلاع رابطًا شخصيًا", "افتح الرابط الذي أُرسل إليك للإجابة عنه."},
		Answered:   {"شكرًا لك", "لقد أجبت عن هذا الاستطلاع من قبل."},
		Down:       {"لا يمكن عرض الاستطلاع الآن", "يرجى المحاولة مرة أخرى بعد دقيقة."},
		NoLinks:    {"استطلاعات الروابط غير متاحة هنا", "لا يحتفظ هذا الخادم باستطلاعات الروابط."},
		Busy:       {"طلبات كثيرة جدًا", "فُتح هذا الاستطلاع مرات كثيرة من هنا للتو. يرجى المحاولة مرة أخرى بعد دقيقة."},
		BadRequest: {"لا يمكن الإجابة عن هذا الرابط", ""},
		Thanks:     {"", "شكرًا لك. يمكنك إغلاق هذه الصفحة."},
		Dismissed:  {"", "لقد أغلقت الاستطلاع. افتح الرابط مرة أخرى للإجابة عنه."},
	},
}

// Text returns a page kind's title and message in lang, one of Languages (English otherwise).
func Text(lang, kind string) (title, message string) {
	t, ok := texts[lang]
	if !ok {
		t = texts["en"]
	}
	w := t[kind]
	return w.title, w.message
}
