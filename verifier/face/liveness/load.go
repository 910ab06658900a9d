package liveness

import (
	"fmt"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/models"
)

// Load opens the model set in dir ("" = models.DefaultDir(), every file
// checked by sha256) and loads the face engine (opt) and one Analyzer (cfg)
// that describes faces with it: what a command or a benchmark judging one
// capture at a time needs (verifier/engines keeps a pool of analyzers
// over one engine instead).
func Load(dir string, opt face.Options, cfg Config) (*face.Engine, *Analyzer, error) {
	set, err := models.Open(dir, models.Hashes)
	if err != nil {
		return nil, nil, fmt.Errorf("load liveness: %w", err)
	}
	eng, err := face.Load(set.Dir, opt)
	if err != nil {
		return nil, nil, err
	}
	an, err := NewAnalyzer(set.ReadFile, EngineDescriber(eng.NewAnalyzer()), cfg)
	if err != nil {
		return nil, nil, err
	}
	return eng, an, nil
}
