package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

// testConcurrentGets reads verifications from many goroutines at once, as
// polling integrations do, and wants every answer to be the one a read
// alone gives: the row for its owner, ErrNotFound for another account, a
// deleted or missing row and a malformed ID. A store may serve concurrent
// reads together (sqlstore batches them on PostgreSQL); no read may get
// another's row or share another's error.
func testConcurrentGets(t *testing.T, s verifier.Store) {
	ctx := context.Background()
	t.Parallel()
	a, b := mustAccount(t, s), mustAccount(t, s)
	type read struct {
		account, id string
		want        *verifier.Verification // nil: ErrNotFound
	}
	var reads []read
	for range 6 {
		for _, acct := range []verifier.Account{a, b} {
			v := mustVerification(t, s, newVerification(acct.ID))
			reads = append(reads, read{acct.ID, v.ID, &v})
		}
	}
	gone := mustVerification(t, s, newVerification(a.ID))
	if err := s.DeleteVerification(ctx, a.ID, gone.ID, base); err != nil {
		t.Fatalf("DeleteVerification: %v", err)
	}
	reads = append(reads,
		read{b.ID, reads[0].id, nil}, // a's, asked by b
		read{a.ID, reads[1].id, nil}, // b's, asked by a
		read{a.ID, gone.ID, nil},
		read{a.ID, uuid.NewString(), nil},
		read{a.ID, "not-a-uuid", nil},
		read{a.ID, reads[0].id + "0", nil},
	)
	const rounds = 8
	errs := make(chan error, rounds*len(reads))
	var wg sync.WaitGroup
	for r := range rounds {
		for i, rd := range reads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := s.GetVerification(ctx, rd.account, rd.id)
				switch {
				case rd.want == nil && !errors.Is(err, verifier.ErrNotFound):
					errs <- fmt.Errorf("round %d, read %d (%s by %s): %v, want ErrNotFound", r, i, rd.id, rd.account, err)
				case rd.want != nil && err != nil:
					errs <- fmt.Errorf("round %d, read %d: %v", r, i, err)
				case rd.want != nil:
					equalVerification(t, fmt.Sprintf("round %d, read %d", r, i), got, *rd.want)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
