package survey

// Question types beyond the first six: a grid, an order, a date, an agreement, a call to action
// and contact details. Each has its own properties and its own answer's form (see
// ValidateAnswers).
const (
	TypeMatrix  = "matrix"
	TypeRanking = "ranking"
	TypeDate    = "date"
	TypeConsent = "consent"
	TypeCTA     = "cta"
	TypeContact = "contact"
)

// Rating displays with a fixed scale: a customer effort score from 1 to 7, and a thumbs down (1)
// or up (2).
const (
	DisplayCES    = "ces"
	DisplayThumbs = "thumbs"
)

// The answers of a call to action.
const (
	CTAClicked   = "clicked"
	CTADismissed = "dismissed"
)

// The fields a contact question may ask for.
const (
	ContactName    = "name"
	ContactEmail   = "email"
	ContactPhone   = "phone"
	ContactCompany = "company"
	ContactAddress = "address"
)

// ContactFieldIDs are the fields a contact question may ask for, in the order a form shows them
// when it lists them all.
var contactFieldIDs = []string{ContactName, ContactEmail, ContactPhone, ContactCompany, ContactAddress}

// ContactFieldIDs returns the ids a contact question's fields may have.
func ContactFieldIDs() []string { return append([]string(nil), contactFieldIDs...) }

// Choice is one row or column of a matrix, or one option of a ranking: the value an answer holds,
// and the label a person is shown for it when it is not the value itself.
type Choice struct {
	Value string  `json:"value"`
	Label *string `json:"label,omitempty"`
}

// Text returns what a person is shown for the choice: its label, or its value.
func (c Choice) Text() string {
	if c.Label != nil && *c.Label != "" {
		return *c.Label
	}
	return c.Value
}

// MatrixProperties asks for one column per row, as a grid. Its answer is a Fields from row value
// to column value; a required matrix needs every row answered.
type MatrixProperties struct {
	ButtonLabel string   `json:"buttonLabel"`
	Rows        []Choice `json:"rows"`
	Columns     []Choice `json:"columns"`
}

// RankingProperties asks for the options in order of preference. Its answer is a Choices of
// option values, first preferred first, none twice, at least Min of them (all when Min is not
// set).
type RankingProperties struct {
	ButtonLabel string   `json:"buttonLabel"`
	Options     []Choice `json:"options"`
	Min         *int     `json:"min,omitempty"`
}

// DateProperties asks for a date, a Text "YYYY-MM-DD" from Min to Max when they are set.
type DateProperties struct {
	ButtonLabel string  `json:"buttonLabel"`
	Min         *string `json:"min,omitempty"`
	Max         *string `json:"max,omitempty"`
}

// ConsentProperties asks a person to agree to Label. Its answer is Bool(true); a person who
// does not agree leaves the question unanswered (and cannot pass it when it is required).
type ConsentProperties struct {
	Label       string `json:"label"`
	ButtonLabel string `json:"buttonLabel"`
}

// CTAProperties is a call to action: a button, opening URL in a new tab when it is set, and a
// button that declines, named DismissLabel (the widget's own word when it is not set). Its
// answer is the Text CTAClicked or CTADismissed.
type CTAProperties struct {
	ButtonLabel  string  `json:"buttonLabel"`
	URL          *string `json:"url,omitempty"`
	DismissLabel *string `json:"dismissLabel,omitempty"`
}

// ContactField is one field a contact question asks for: ID is one of ContactFieldIDs.
type ContactField struct {
	ID       string `json:"id"`
	Required bool   `json:"required,omitempty"`
}

// ContactProperties asks for contact details. Its answer is a Fields from field id to the text
// given, holding only the fields asked for and every required one.
type ContactProperties struct {
	ButtonLabel string         `json:"buttonLabel"`
	Fields      []ContactField `json:"fields"`
}

// Type returns the variant's discriminator.
func (MatrixProperties) Type() string { return TypeMatrix }

// Type returns the variant's discriminator.
func (RankingProperties) Type() string { return TypeRanking }

// Type returns the variant's discriminator.
func (DateProperties) Type() string { return TypeDate }

// Type returns the variant's discriminator.
func (ConsentProperties) Type() string { return TypeConsent }

// Type returns the variant's discriminator.
func (CTAProperties) Type() string { return TypeCTA }

// Type returns the variant's discriminator.
func (ContactProperties) Type() string { return TypeContact }

func (MatrixProperties) isProperties()  {}
func (RankingProperties) isProperties() {}
func (DateProperties) isProperties()    {}
func (ConsentProperties) isProperties() {}
func (CTAProperties) isProperties()     {}
func (ContactProperties) isProperties() {}

// MarshalJSON writes the properties with their "type" discriminator.
func (p MatrixProperties) MarshalJSON() ([]byte, error) {
	type plain MatrixProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p RankingProperties) MarshalJSON() ([]byte, error) {
	type plain RankingProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p DateProperties) MarshalJSON() ([]byte, error) {
	type plain DateProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p ConsentProperties) MarshalJSON() ([]byte, error) {
	type plain ConsentProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p CTAProperties) MarshalJSON() ([]byte, error) {
	type plain CTAProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p ContactProperties) MarshalJSON() ([]byte, error) {
	type plain ContactProperties
	return withType(p.Type(), plain(p))
}

// decodeMoreProperties decodes the properties of the types in this file; ok is false for
// another type.
func decodeMoreProperties(typ string, raw []byte) (p Properties, ok bool, err error) {
	switch typ {
	case TypeMatrix:
		p, err = decodeAs[MatrixProperties](raw)
	case TypeRanking:
		p, err = decodeAs[RankingProperties](raw)
	case TypeDate:
		p, err = decodeAs[DateProperties](raw)
	case TypeConsent:
		p, err = decodeAs[ConsentProperties](raw)
	case TypeCTA:
		p, err = decodeAs[CTAProperties](raw)
	case TypeContact:
		p, err = decodeAs[ContactProperties](raw)
	default:
		return nil, false, nil
	}
	return p, true, err
}
