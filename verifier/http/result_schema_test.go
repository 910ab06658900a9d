package http

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/openapi"
)

// TestResultSchemaCoversIPMembers: results built by verifier.BuildResult
// with every IP member the service produces (a Tor and a hosting proxy,
// location consistency with a distance and reason codes, the IP check not
// run) match the OpenAPI document's Result schema, and results carrying
// values the document does not allow do not.
func TestResultSchemaCoversIPMembers(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	schema := doc.Components.Schemas["Result"].Value
	km := 222.7
	yes := true
	outcome := func(ip *verifier.IPIntel, loc *ipintel.Consistency) verifier.Outcome {
		return verifier.Outcome{Document: verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true},
			FaceMatch: match.Result{Tier: match.DefiniteMatch, Confidence: 0.9, Cosine: 0.8}, Live: true, IP: ip, Location: loc}
	}
	hosting := &ipintel.Consistency{Result: ipintel.Inconclusive, AnonymizedConnection: &yes, MatchLikelihood: ipintel.LikelihoodMaybe,
		MatchScore: 50, Granularity: ipintel.GranularityCity, DistanceKM: &km, Reasons: []string{ipintel.ReasonHostingProvider}, ConnectionChanged: true}
	notRun := &ipintel.Consistency{Result: ipintel.Inconclusive, MatchLikelihood: ipintel.LikelihoodMaybe, MatchScore: 50,
		Granularity: ipintel.GranularityNone, Reasons: []string{ipintel.ReasonIPNotLocated}}
	settings, _ := json.Marshal(verifier.Settings{EncryptionKeyMode: e2ee.ModeNone, LocationConsistency: true})
	v := verifier.Verification{ID: uuid.NewString(), AccountID: uuid.NewString(), Options: settings, Status: verifier.StatusStarted}
	build := func(o verifier.Outcome) map[string]any {
		t.Helper()
		p, _, err := verifier.BuildResult(v, o, time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	good := map[string]map[string]any{
		"tor":      build(outcome(&verifier.IPIntel{Found: true, Proxy: true, Type: string(ipintel.ProxyTor), Description: "Tor exit relay (listed by the Tor Project)"}, notRun)),
		"hosting":  build(outcome(&verifier.IPIntel{Found: true, Proxy: true, Type: string(ipintel.ProxyHosting), Description: "hosting or cloud provider network: Amazon Web Services (AS14618)"}, hosting)),
		"not run":  build(outcome(nil, nil)),
		"no proxy": build(outcome(&verifier.IPIntel{}, notRun)),
	}
	for name, m := range good {
		if err := schema.VisitJSON(m); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, edit := range map[string]func(m map[string]any){
		"unknown proxy_type": func(m map[string]any) { m["verification"].(map[string]any)["proxy_type"] = "VPN" },
		"ip_found a string":  func(m map[string]any) { m["verification"].(map[string]any)["ip_found"] = "yes" },
		"unknown reason":     func(m map[string]any) { m["location_consistency"].(map[string]any)["reasons"] = []any{"far"} },
		"score over 100":     func(m map[string]any) { m["location_consistency"].(map[string]any)["match_score"] = 101 },
		"unknown member":     func(m map[string]any) { m["location_consistency"].(map[string]any)["accuracy_km"] = 5 },
		"granularity typo":   func(m map[string]any) { m["location_consistency"].(map[string]any)["granularity"] = "state" },
		"flag missing":       func(m map[string]any) { delete(m["location_consistency"].(map[string]any), "anonymized_connection") },
	} {
		m := build(outcome(&verifier.IPIntel{Found: true, Proxy: true, Type: "hosting", Description: "x"}, hosting))
		edit(m)
		if err := schema.VisitJSON(m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
