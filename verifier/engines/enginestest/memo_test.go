package enginestest_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/flow/flowtest"
)

// Memo is only sound because the engines answer the same input the same
// way: a front, a back and a liveness answer, each judged twice by the
// engines themselves, give equal reports, and the memo's first and second
// answers equal them.
func TestMemoAnswersAsTheEnginesDo(t *testing.T) {
	eng := enginestest.Load(t, 2)
	memo := enginestest.Memo(eng)
	ctx := context.Background()
	d := flowtest.DataFor(t)
	face, err := d.ForemanFace()
	if err != nil {
		t.Fatal(err)
	}
	front, err := flowtest.FrontPhoto(face, 1600, 1)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := flowtest.BackPhoto(1, 1600, 3)
	if err != nil {
		t.Fatal(err)
	}
	frames, err := d.ForemanAnswer(36, 96)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ch, _, err := eng.NewChallenge(&flowtest.OrderedRand{}, now.Add(-15*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	same := func(name string, judge func() (any, error), remembered func() (any, error)) {
		t.Helper()
		var got []any
		for _, f := range []func() (any, error){judge, judge, remembered, remembered} {
			v, err := f()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got = append(got, v)
		}
		for i, v := range got[1:] {
			if !reflect.DeepEqual(v, got[0]) {
				t.Errorf("%s: answer %d differs from the first:\n%+v\n%+v", name, i+2, v, got[0])
			}
		}
	}
	same("front", func() (any, error) { return eng.Front(ctx, front) }, func() (any, error) { return memo.Front(ctx, front) })
	same("back", func() (any, error) { return eng.Back(ctx, back) }, func() (any, error) { return memo.Back(ctx, back) })
	same("liveness", func() (any, error) { return eng.Liveness(ctx, ch, frames, now) },
		func() (any, error) { return memo.Liveness(ctx, ch, frames, now) })
	// A different photo is judged, not answered from another's.
	other, err := flowtest.NoCardPhoto(2)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := memo.Front(ctx, front)
	b, _ := memo.Front(ctx, other)
	if reflect.DeepEqual(a, b) {
		t.Error("a photo without a card answered as the license's")
	}
}
