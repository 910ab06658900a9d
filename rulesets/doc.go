// Package rulesets decides what counts as a passing verification for a
// storefront. It is pure code: no I/O, no clock, no globals.
//
// A Ruleset holds the four settings of the interface spec under our names:
//
//	require_authentic  bool, default true: license_appears_real, not
//	                   license_expired, and webcam_appears_live
//	min_face_match     "definite_match" | "likely_match" | "possible_match" |
//	                   null; default "likely_match". null switches the
//	                   face-match rule off entirely.
//	require_over_18    bool, default false: fails unless over_18 is true
//	require_over_21    bool, default false: fails unless over_21 is true
//
// Where to look: ruleset.go (Ruleset, Default, Parse and the Tier of a face
// match), evaluate.go (Ruleset.Evaluate: a verification result in, a
// Decision out, with a Reason and its Code for every failed check). The
// proxy evaluates each verifier webhook with the store's ruleset.
package rulesets
