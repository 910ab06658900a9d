package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/idgate/idgate/verifier"
)

// Limited creates count slots in quota_slots rather than counting rows
// under one account lock, which queued every create of an account behind
// the previous one's commit (a WAL flush each): the counters of an
// (account, type, period) are stripes rows, and the allowance is cut into
// one cap per stripe (the caps sum to the allowance). The invariant, kept by
// every statement below:
//
//	every stripe's used ≤ its cap, and the used sum to the period's
//	counted slot holders (verifications whose quota_period is the period).
//
// So a create that finds a stripe below its cap (and the allowance the caps
// were cut from is the create's) knows the holders are below the
// allowance: it takes that stripe's row lock alone, and creates on other
// stripes commit beside it. It tries one stripe drawn in turn first (one
// index probe; it waits if another create holds that row, for one
// statement at most) and only when that one is full looks for any stripe
// with room that nobody holds (reading all of them). When no stripe has
// room, a fresh transaction locks them all (claimAll) and sees the exact
// total: it refuses when the total has reached the allowance, and otherwise
// (an allowance that changed, holders no counter counted yet) recuts the
// caps and refills the stripes with the total. A release locks them all
// likewise and refills them with one less: which stripe counts a holder
// does not matter, only the sum, so a refill spreads it evenly and every
// stripe keeps its share of the room left, which keeps the first draw
// finding room until the allowance is nearly spent.
//
// Holders no counter counts yet (created under an unlimited plan, which
// stays one plain insert, or before the counters existed) are adopted by
// claimAll; the fast path's insert refuses while any exist, which costs one
// probe of an empty partial index.
//
// Deadlocks: whoever waits for stripes takes them in stripe order and
// holds no stripe of another period; the fast path waits for one stripe
// at most, holding no other (claimAndInsertSQL); and nobody waits for a
// verification row while holding stripes (claimAll adopts before it locks
// them).
const stripes = 32

// The SQL's fragments, with the stripe count written in.
var (
	stripesText = fmt.Sprint(stripes)
	capOfStripe = shareOfStripe(`$4::bigint`)
)

// shareOfStripe is this stripe's share of n cut into stripes parts: the
// first n % stripes stripes get one more. Shares of n ≤ m are never above
// shares of m (equal quotients leave n's remainder ≤ m's), so a refill of
// n ≤ the allowance keeps every used ≤ its cap.
func shareOfStripe(n string) string {
	return n + ` / ` + stripesText + ` + CASE WHEN stripe < ` + n + ` % ` + stripesText + ` THEN 1 ELSE 0 END`
}

var (
	// claimSlotSQL takes a slot on a stripe with room that nobody holds,
	// starting at the drawn stripe ($5) so creates spread.
	claimSlotSQL = q(`UPDATE quota_slots SET used = used + 1
		WHERE account_id = $1 AND type = $2 AND period_start = $3 AND stripe = (SELECT stripe FROM quota_slots
			WHERE account_id = $1 AND type = $2 AND period_start = $3 AND allowance = $4::bigint AND used < cap
			ORDER BY (stripe + $5::integer) % ` + stripesText + ` LIMIT 1 FOR UPDATE SKIP LOCKED)`)
	// lockSlotsSQL locks every stripe of the period, in stripe order.
	lockSlotsSQL = q(`SELECT allowance, used FROM quota_slots WHERE account_id = $1 AND type = $2 AND period_start = $3
		ORDER BY stripe FOR UPDATE`)
	// addSlotsSQL makes the period's stripes, caps 0 until recut.
	addSlotsSQL = q(addSlots())
	// adoptHoldersSQL counts, into the period, slot holders no counter
	// counts yet.
	adoptHoldersSQL = q(`UPDATE verifications SET quota_period = $3
		WHERE account_id = $1 AND type = $2 AND created_at >= $3 AND quota_period IS NULL AND ` + liveSlotHolding)
	// recutSlotsSQL cuts allowance $4 into caps and $5 used likewise, so
	// the room left is spread evenly too (least only restates used ≤ cap,
	// which shareOfStripe's order already keeps for $5 ≤ $4).
	recutSlotsSQL = q(`UPDATE quota_slots SET allowance = $4::bigint, cap = ` + capOfStripe + `,
		used = least(` + shareOfStripe(`$5::bigint`) + `, ` + capOfStripe + `)
		WHERE account_id = $1 AND type = $2 AND period_start = $3`)
)

// claimAndInsertSQL is the fast path in PostgreSQL: claimSlotSQL and the
// insert in one statement, one round trip and no BEGIN/COMMIT (a
// transaction's round trips cost a create about as much CPU as its insert).
// The claim carries the insert's conditions (the template is the account's;
// no uncounted holder), since a data-modifying WITH runs whether or not the
// statement that reads it inserts; the insert then only needs the claim.
// $20 is the period, $21 the allowance, $22 the drawn stripe.
//
// The first form takes the drawn stripe $22 (drawStripe) if it has room:
// one index probe and one row version written. The second reads every
// stripe's row, sorts them and writes a row lock before the update, to
// find one with room that nobody holds; it runs only when the drawn stripe
// is full. The first form waits if another create holds the row (one
// statement at most) or a claimAll holds them all while it recuts, rather
// than sending every create behind it to claimAll too, which would keep
// claimAll busy for good; it waits for one row only, so it cannot take
// part in a deadlock. The second skips held stripes, so it never waits.
// In bench/lifecycle (finite plan, concurrency 32) the drawn stripe first
// took about 35 µs of database CPU off a create against the second form
// alone (about 385 µs; the unlimited plan's plain insert about 270 µs).
//
// Each form comes twice: with the template check, for a create that names
// a template, and without, for the rest. PostgreSQL opens, locks and sets
// up every relation a plan names when it starts the statement, run or not:
// the never-run template probe cost a create about 20 µs of its own CPU,
// most of it PostgreSQL's (bench/lifecycle, 2026-11-28, three alternated
// runs: 374, 346 and 376 µs per finite create without it, 391, 391 and
// 383 with it).
var claimAndInsertSQL = [2][2]string{
	claimAndInsertForms(false),
	claimAndInsertForms(true),
}

// claimAndInsertForms is the drawn-stripe form and the any-stripe form,
// with the template check if template.
func claimAndInsertForms(template bool) [2]string {
	return [2]string{
		claimAndInsert(`stripe = $22::integer AND allowance = $21::bigint AND used < cap`, template),
		claimAndInsert(`stripe = (SELECT stripe FROM quota_slots
		WHERE account_id = $2::uuid AND type = $5::text AND period_start = $20::timestamptz AND allowance = $21::bigint AND used < cap
		ORDER BY (stripe + $22::integer) % `+stripesText+` LIMIT 1 FOR UPDATE SKIP LOCKED)`, template),
	}
}

func claimAndInsert(stripe string, template bool) string {
	conditions := `NOT ` + uncountedHolders
	if template {
		conditions = templateIsAccounts + ` AND ` + conditions
	}
	return `WITH slot AS (UPDATE quota_slots SET used = used + 1
	WHERE account_id = $2::uuid AND type = $5::text AND period_start = $20::timestamptz AND ` + stripe + `
	AND ` + conditions + `
	RETURNING 1)
INSERT INTO verifications (` + verificationCols + `, quota_period) SELECT ` + insertValues + `, $20::timestamptz FROM slot`
}

func addSlots() string {
	var b strings.Builder
	b.WriteString(`INSERT INTO quota_slots (account_id, type, period_start, stripe, allowance, cap, used) VALUES `)
	for i := range stripes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "($1::uuid, $2::text, $3::timestamptz, %d, 0, 0, 0)", i)
	}
	b.WriteString(` ON CONFLICT DO NOTHING`)
	return b.String()
}

// drawStripe is the stripe a claim tries first: the next one in turn
// after this process's last claim, from a random start per process. In
// turn rather than at random, the creates one instance has in flight (at
// most its pool's connections) hold different stripes, so none waits for
// another's commit: drawn at random at concurrency 32 on a loaded machine,
// where a commit's flush holds the stripe for milliseconds, bench/lifecycle's
// creates woke PostgreSQL about 0.5 more times each (waits for a held
// stripe) and saved no CPU. Other instances start elsewhere.
func (db *DB) drawStripe() int {
	return int((db.stripeDraws.Add(1) + stripeStart) % stripes)
}

// stripeStart is this process's first stripe.
var stripeStart = uint32(rand.IntN(stripes))

// claimSlot takes a slot for a create of type t under allowance a (Limit ≥
// 0) on a stripe with room that nobody holds; false when it finds none.
func (db *DB) claimSlot(ctx context.Context, tx *sql.Tx, accountID string, t verifier.Type, a verifier.Allowance) (bool, error) { // SQLite
	n, err := rowsAffected(tx.ExecContext(ctx, db.sql(claimSlotSQL), accountID, string(t), ts(a.Since), a.Limit, db.drawStripe()))
	return n == 1, mapErr(err)
}

// claimAll is the slow path: it adopts uncounted holders, locks every
// stripe of the period (making them on its first create), and either
// refuses (the holders have reached the allowance) or recuts the caps for
// a.Limit with the holders plus the new one in them.
func (db *DB) claimAll(ctx context.Context, tx *sql.Tx, accountID string, t verifier.Type, a verifier.Allowance) error {
	period := ts(a.Since)
	adopted, err := rowsAffected(tx.ExecContext(ctx, db.sql(adoptHoldersSQL), accountID, string(t), period))
	if err != nil {
		return mapErr(err)
	}
	_, counted, err := db.lockSlots(ctx, tx, accountID, t, period)
	if err != nil {
		return err
	}
	if counted < 0 {
		if _, err := tx.ExecContext(ctx, db.sql(addSlotsSQL), accountID, string(t), period); err != nil {
			return mapErr(err)
		}
		if _, counted, err = db.lockSlots(ctx, tx, accountID, t, period); err != nil {
			return err
		}
	}
	holders := counted + adopted
	if holders >= int64(a.Limit) {
		return &verifier.QuotaError{Type: t, Limit: a.Limit}
	}
	_, err = tx.ExecContext(ctx, db.sql(recutSlotsSQL), accountID, string(t), period, a.Limit, holders+1)
	return mapErr(err)
}

// lockSlots locks the period's stripes and returns the allowance they were
// cut from and the sum of their used; used is -1 when the period has none.
func (db *DB) lockSlots(ctx context.Context, tx *sql.Tx, accountID string, t verifier.Type, period time.Time) (allowance, used int64, err error) {
	rows, err := tx.QueryContext(ctx, db.sql(lockSlotsSQL), accountID, string(t), period)
	if err != nil {
		return 0, 0, mapErr(err)
	}
	stripes, err := collect(rows, func(r scanner) ([2]int64, error) {
		var s [2]int64
		return s, r.Scan(&s[0], &s[1])
	})
	if err != nil || len(stripes) == 0 {
		return 0, -1, err
	}
	for _, s := range stripes {
		allowance, used = s[0], used+s[1]
	}
	return allowance, used, nil
}

// slotSet names one period's counters: an account's slots of one type.
type slotSet struct {
	accountID, typ string
	period         time.Time
}

// releaseSlots gives back n slots of a period, keeping the caps.
func (db *DB) releaseSlots(ctx context.Context, tx *sql.Tx, s slotSet, n int64) error {
	allowance, used, err := db.lockSlots(ctx, tx, s.accountID, verifier.Type(s.typ), s.period)
	if err != nil {
		return fmt.Errorf("release slots: %w", err)
	}
	if used < n {
		return fmt.Errorf("release %d slots of %s %s since %s: the counters hold %d", n, s.accountID, s.typ, s.period.Format(time.RFC3339), used)
	}
	_, err = tx.ExecContext(ctx, db.sql(recutSlotsSQL), s.accountID, s.typ, s.period, allowance, used-n)
	return mapErr(err)
}

// releaseSlot gives back the slot verification id holds, if a counter
// counts it. The caller holds the verification's row and is moving it out
// of a slot-holding status.
func (db *DB) releaseSlot(ctx context.Context, tx *sql.Tx, accountID, id string) error {
	s := slotSet{accountID: accountID}
	var counted bool
	if err := tx.QueryRowContext(ctx, db.sql(quotaPeriodOfSQL), id).Scan(&s.typ, &counted, scanTime{&s.period}); err != nil {
		return fmt.Errorf("release slot: %w", mapErr(err))
	}
	if !counted {
		return nil
	}
	return db.releaseSlots(ctx, tx, s, 1)
}

var quotaPeriodOfSQL = q(`SELECT type, quota_period IS NOT NULL, quota_period FROM verifications WHERE id = $1`)
