// Package survey is the survey model shared by the server, the Go client and webhook receivers:
// a survey's definition with its question and routing unions, the answer union, the rules that
// validate a definition when it is saved and an answer when it is submitted, and the routing
// evaluator that decides which question follows another.
//
// It depends on the standard library only, so client code can import it without pulling in the
// server or SQLite.
//
// The unions are Go interfaces with one struct per variant. Decode a Question and switch on its
// Properties:
//
//	switch p := q.Properties.(type) {
//	case survey.RatingProperties:
//		fmt.Println("rating out of", p.Scale)
//	case survey.OpenEndedProperties:
//		fmt.Println("free text up to", p.Max)
//	}
//
// Answers work the same way (Text, Number, Choices, BugReportAnswer, Bool, Fields).
package survey
