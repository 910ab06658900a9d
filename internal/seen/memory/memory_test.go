package memory_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/seen"
	"github.com/idgate/idgate/internal/seen/memory"
	"github.com/idgate/idgate/internal/seen/seentest"
	"github.com/idgate/idgate/internal/testkit"
)

func TestConformance(t *testing.T) {
	seentest.Run(t, func(_ *testing.T, now func() time.Time) seen.Set { return memory.New(now, 0) })
}

// Full of live records, the set refuses a new key rather than forget one
// it still guards; expired ones make room.
func TestFullRefusesRatherThanForgets(t *testing.T) {
	ctx := context.Background()
	c := testkit.NewClock()
	s := memory.New(c.Now, 2)
	for _, k := range []string{"a", "b"} {
		ok, err := s.Add(ctx, k, time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
	}
	ok, err := s.Add(ctx, "c", time.Minute)
	assert.True(t, errors.Is(err, memory.ErrFull), "got %v", err)
	assert.False(t, ok)
	ok, err = s.Add(ctx, "a", time.Minute)
	require.NoError(t, err, "a key it holds is still answered when full")
	assert.False(t, ok)
	c.Advance(time.Minute)
	ok, err = s.Add(ctx, "c", time.Minute)
	require.NoError(t, err)
	assert.True(t, ok)
}
