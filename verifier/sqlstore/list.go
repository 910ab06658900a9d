package sqlstore

// The filtered, cursor-paged verification list query. Placeholders are $n,
// which PostgreSQL and modernc.org/sqlite both accept; the conditions use no
// dialect's own syntax.

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
)

// listQuery is the part of the list statement after FROM verifications.
type listQuery struct {
	Where string // conditions, without the WHERE keyword
	Args  []any
	Limit int // the page size; the statement fetches Limit+1 to see if more follow
}

// listOrderBy is the order the cursor follows: newest first, ties broken by id.
const listOrderBy = "created_at DESC, id DESC"

// buildList validates f and returns the query for accountID's
// verifications. Deleted rows never match.
func buildList(accountID string, f verifier.VerificationFilter) (listQuery, error) {
	q := listQuery{Limit: f.Limit}
	if q.Limit == 0 {
		q.Limit = verifier.DefaultListLimit
	}
	if q.Limit < 1 || q.Limit > verifier.MaxListLimit {
		return listQuery{}, invalid("limit", "out_of_range", fmt.Sprintf("must be 1 to %d", verifier.MaxListLimit))
	}
	var conds []string
	arg := func(v any) string {
		q.Args = append(q.Args, v)
		return "$" + strconv.Itoa(len(q.Args))
	}
	conds = append(conds, "account_id = "+arg(accountID), "test = "+arg(bool(f.Mode)), "deleted_at IS NULL")
	if len(f.Statuses) > 0 {
		ps := make([]string, len(f.Statuses))
		for i, s := range f.Statuses {
			if !s.Valid() {
				return listQuery{}, invalid("status", "unknown_status", fmt.Sprintf("unknown status %q", s))
			}
			ps[i] = arg(string(s))
		}
		conds = append(conds, "status IN ("+strings.Join(ps, ", ")+")")
	}
	if !f.CreatedFrom.IsZero() {
		conds = append(conds, "created_at >= "+arg(ts(f.CreatedFrom)))
	}
	if !f.CreatedBefore.IsZero() {
		conds = append(conds, "created_at < "+arg(ts(f.CreatedBefore)))
	}
	if f.ExternalID != "" {
		conds = append(conds, "external_id = "+arg(f.ExternalID))
	}
	if f.Cursor != "" {
		at, id, err := decodeCursor(f.Cursor)
		if err != nil {
			// The public message is errCursor's words alone: what exactly was
			// wrong with it (a Go decoder's error) helps no client.
			return listQuery{}, invalid("cursor", "invalid_cursor", "must be the next_cursor of a previous page")
		}
		conds = append(conds, "(created_at, id) < ("+arg(ts(at))+", "+arg(id)+")")
	}
	q.Where = strings.Join(conds, " AND ")
	return q, nil
}

func invalid(field, code, msg string) error {
	return &verifier.ValidationError{Fields: []problem.Detail{{Field: field, Code: code, Message: msg}}}
}

// errCursor: a cursor no list returned.
var errCursor = errors.New("not a cursor from a previous page")

// listPage cuts rows (fetched with Limit+1) to a page and makes its cursor.
func listPage(rows []verifier.Verification, limit int) verifier.VerificationPage {
	if len(rows) <= limit {
		return verifier.VerificationPage{Items: rows}
	}
	last := rows[limit-1]
	return verifier.VerificationPage{Items: rows[:limit], NextCursor: encodeCursor(last.CreatedAt, last.ID)}
}

// encodeCursor names the position after the row (createdAt, id). It is
// opaque to clients: base64url of "<unix microseconds>:<uuid>".
func encodeCursor(createdAt time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(createdAt.UnixMicro(), 10) + ":" + id))
}

// decodeCursor parses encodeCursor's output; anything else wraps errCursor.
func decodeCursor(s string) (time.Time, string, error) {
	if len(s) > 128 {
		return time.Time{}, "", fmt.Errorf("%w: too long", errCursor)
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("%w: %v", errCursor, err)
	}
	// The decoder skips CR and LF even in strict mode; a cursor is only ever
	// what encodeCursor wrote, so anything else is refused.
	if base64.RawURLEncoding.EncodeToString(b) != s {
		return time.Time{}, "", fmt.Errorf("%w: not canonical base64url", errCursor)
	}
	us, id, ok := strings.Cut(string(b), ":")
	if !ok {
		return time.Time{}, "", fmt.Errorf("%w: malformed", errCursor)
	}
	n, err := strconv.ParseInt(us, 10, 64)
	if err != nil || strconv.FormatInt(n, 10) != us {
		return time.Time{}, "", fmt.Errorf("%w: bad time", errCursor)
	}
	u, err := uuid.Parse(id)
	if err != nil || u.String() != id {
		return time.Time{}, "", fmt.Errorf("%w: bad id", errCursor)
	}
	return time.UnixMicro(n).UTC(), id, nil
}
