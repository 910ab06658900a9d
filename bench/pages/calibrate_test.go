package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBenchmarkIndexSourceIsTheWholeFunction(t *testing.T) {
	file := "/** a page function before */\nfunction before() {\n  return 1;\n}\n\n" +
		"/** the benchmark */\nfunction computeBenchmarkIndex() {\n  function inner() {\n    return 2;\n  }\n  return inner();\n}\n\nfunction after() {}\n"
	src, err := benchmarkIndexSource(file)
	require.NoError(t, err)
	require.Equal(t, "function computeBenchmarkIndex() {\n  function inner() {\n    return 2;\n  }\n  return inner();\n}", src)

	_, err = benchmarkIndexSource("function other() {\n}\n")
	require.ErrorContains(t, err, "no computeBenchmarkIndex")
	_, err = benchmarkIndexSource("x\nfunction computeBenchmarkIndex() {\n  return 1;")
	require.ErrorContains(t, err, "no end")
}

func TestRateForBisectsToTheTarget(t *testing.T) {
	// A host reading 2700 unthrottled, the index falling as 1/rate as the
	// slowdown's does (measured here: 2687, 1414 at 2×, 844 at 3×, 652 at 4×).
	var asked []float64
	index := func(rate float64) (float64, error) {
		asked = append(asked, rate)
		return 2700 / rate, nil
	}
	mid, err := rateFor(index, midTierIndex, 1, 2700.0/midTierIndex*1.5)
	require.NoError(t, err)
	require.InDelta(t, 2.7, mid, 0.03)
	require.LessOrEqual(t, len(asked), 8)
	require.Less(t, math.Abs(2700/mid-midTierIndex), 10.0)

	low, err := rateFor(index, lowTierIndex, 1, 2700.0/lowTierIndex*1.5)
	require.NoError(t, err)
	require.InDelta(t, 2700.0/lowTierIndex, low, 0.4)

	// A noisy host: the bisection stops after 8 readings with the last
	// rate, never outside the bracket.
	asked = nil
	jumpy := func(rate float64) (float64, error) {
		asked = append(asked, rate)
		if len(asked)%2 == 0 {
			return 5000, nil
		}
		return 10, nil
	}
	r, err := rateFor(jumpy, midTierIndex, 1, 4)
	require.NoError(t, err)
	require.Len(t, asked, 8)
	require.True(t, r > 1 && r < 4, "rate %v", r)
}

func TestSlowdownOfNumbersAndPresets(t *testing.T) {
	c := calibration{host: 2700, at4: 650, mid: 2.64, low: 10.07}
	for p, want := range map[string]float64{"4": 4, "1": 1, "2.5": 2.5, "mid-tier": 2.64, "low-tier": 10.07} {
		got, err := slowdownOf(p, c, true)
		require.NoError(t, err, p)
		require.Equal(t, want, got, p)
	}
	for _, p := range []string{"0.5", "fast", "", "NaN"} {
		_, err := slowdownOf(p, c, true)
		require.ErrorContains(t, err, "a slowdown of at least 1", p)
	}
	_, err := slowdownOf("mid-tier", c, false)
	require.ErrorIs(t, err, errNotCalibrated)
	_, err = slowdownOf("mid-tier", calibration{host: 800, low: 3}, true)
	require.ErrorIs(t, err, errNotCalibrated)
	got, err := slowdownOf("low-tier", calibration{host: 800, low: 3}, true)
	require.NoError(t, err)
	require.Equal(t, 3.0, got)
}
