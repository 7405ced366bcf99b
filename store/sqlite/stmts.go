package sqlite

import (
	"database/sql"
)

// maxPrepared bounds the statements kept prepared on the write connection. The writes use a
// few dozen fixed queries; the bound only guards against a query built from data.
const maxPrepared = 256

// stmtCache holds the writer's prepared statements. Preparing parses and plans a query, which
// costs more than running most of ours, so each query is prepared once on the write connection
// and reused by every later transaction: database/sql hands a transaction the statement already
// prepared on its connection (Tx.Stmt), and prepares it again only if the connection changed.
// A query first met inside a transaction is prepared there, and on the connection once the
// transaction ends. Only the writer goroutine touches it.
type stmtCache struct {
	prepared map[string]*sql.Stmt // on the write connection, outside any transaction
	inTx     map[string]*sql.Stmt // the running transaction's, nil when preparing failed
	learn    []string             // queries to prepare on the connection after the transaction
}

func newStmtCache() *stmtCache {
	return &stmtCache{prepared: make(map[string]*sql.Stmt), inTx: make(map[string]*sql.Stmt)}
}

// stmt returns query prepared in tx, once per transaction. If preparing fails, it returns a
// statement that runs unprepared, so the error surfaces where the statement is used.
func (s *Store) stmt(tx *sql.Tx, query string) *txStmt {
	c := s.stmts
	st, ok := c.inTx[query]
	if !ok {
		if p := c.prepared[query]; p != nil {
			st = tx.Stmt(p)
		} else {
			var err error
			if st, err = tx.Prepare(query); err != nil {
				st = nil
			} else if len(c.prepared)+len(c.learn) < maxPrepared {
				c.learn = append(c.learn, query)
			}
		}
		c.inTx[query] = st
	}
	return &txStmt{tx: tx, query: query, st: st}
}

// endTx forgets the ended transaction's statements (it closed them) and prepares the queries
// it met for the first time on the write connection, which is free again.
func (s *Store) endTx() {
	c := s.stmts
	clear(c.inTx)
	for _, q := range c.learn {
		// A failure only means the query is prepared per transaction until it succeeds.
		if p, err := s.wdb.Prepare(q); err == nil {
			c.prepared[q] = p
		}
	}
	c.learn = c.learn[:0]
}

// close closes the statements prepared on the write connection.
func (c *stmtCache) close() {
	for q, p := range c.prepared {
		_ = p.Close()
		delete(c.prepared, q)
	}
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
