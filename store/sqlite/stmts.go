package sqlite

import (
	"database/sql"
)

// batchStmts holds the statements prepared in the writer's current transaction, so every
// write of a group commit reuses them: preparing costs more than running most of them. Only
// the writer goroutine touches it; commit resets it with each transaction.
type batchStmts map[string]*sql.Stmt

// stmt returns query prepared in tx, once per transaction. If preparing fails, it returns a
// statement that runs unprepared, so the error surfaces where the statement is used.
func (s *Store) stmt(tx *sql.Tx, query string) *txStmt {
	st, ok := s.batch[query]
	if !ok {
		var err error
		if st, err = tx.Prepare(query); err != nil {
			st = nil
		}
		s.batch[query] = st
	}
	return &txStmt{tx: tx, query: query, st: st}
}

// txStmt runs a statement in a transaction, prepared when possible.
type txStmt struct {
	tx    *sql.Tx
	query string
	st    *sql.Stmt
}

func (t *txStmt) Exec(args ...any) (sql.Result, error) {
	if t.st == nil {
		return t.tx.Exec(t.query, args...)
	}
	return t.st.Exec(args...)
}

func (t *txStmt) QueryRow(args ...any) *sql.Row {
	if t.st == nil {
		return t.tx.QueryRow(t.query, args...)
	}
	return t.st.QueryRow(args...)
}

func (s *Store) exec(tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	return s.stmt(tx, query).Exec(args...)
}

func (s *Store) queryRow(tx *sql.Tx, query string, args ...any) *sql.Row {
	return s.stmt(tx, query).QueryRow(args...)
}
