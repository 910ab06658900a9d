// Package tracker holds what the end user's liveness page loads to track
// the face while the person moves: TensorFlow.js (its core, its
// WebAssembly backend and its graph-model loader: tf.ts) and its
// WebAssembly, bundled and copied from node_modules at build time by
// `make npm` (go generate) into gen/ (gitignored, embedded),
// and the three models the server itself runs (BlazeFace, the face mesh,
// the iris model), read from the verified model set (`make models`). Each
// file gets a content-hashed name under /assets/, so the page may cache it
// for good and everything comes from our own origin.
//
// Why these models: they are exactly the server's BlazeFace, mesh and iris
// models (Human's; the server's Go pipeline is a port of Human's, checked
// against it in verifier/face/pose), so "turned 20°" reads the same on
// both sides; MediaPipe's own task files come from Google's storage, not
// a registry. The page runs them in its own step (verifier/web/src/
// meshstep.ts) and so needs only TensorFlow.js to load and run them, not
// Human (whose script, with the WebGL, WebGPU and CPU backends it bundles,
// was 1.58 MB, 414 KB gzipped). TensorFlow.js's WebAssembly backend is
// used (CSP 'wasm-unsafe-eval', no eval): WebGL compiles shaders for
// seconds before the first frame and is missing in headless Chromium.
//
// The tracker is an enhancement: without gen/ (a plain go build) or the
// models, Files reports why and the page paces the step on its own.
package tracker

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/verifier/face/models"
)

//go:generate go run github.com/idgate/idgate/internal/bundle/cmd/npmgen -global idgateTF tf.ts @tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm @tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm

//go:embed gen
var gen embed.FS

// ErrNotBuilt: the binary was built without `make npm`.
var ErrNotBuilt = errors.New("face tracker not built: run `make npm` (npm ci, then go generate ./verifier/web/tracker) before go build")

// Set is the tracker's files and the page's view of them.
type Set struct {
	// Files by name.
	Files map[string]*bundle.Asset
	// Config is what the page is built with (the global IDGATE_TRACKER):
	// the paths of the library, of each WebAssembly file by the name
	// TensorFlow.js asks for, and of each model.
	Config Config
}

// Config names the served paths, as the page reads them.
type Config struct {
	Lib    string            `json:"lib"`
	Wasm   map[string]string `json:"wasm"`
	Models map[string]string `json:"models"`
}

// Models the tracker runs, by the name the page uses; the same files the
// server loads (verifier/face/blazeface, facemesh, pose).
var trackerModels = map[string]string{"detector": "human/blazeface", "mesh": "human/facemesh", "iris": "human/iris"}

var wasmFiles = []string{"tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm.wasm"}

var load = sync.OnceValues(func() (*Set, error) {
	set, err := models.Open("", models.Hashes)
	if err != nil {
		return nil, err
	}
	return build(gen, set.ReadFile)
})

// Files is the tracker's set, built once, or why there is none.
func Files() (*Set, error) { return load() }

// build packs the generated files and the models read through readModel.
func build(fsys fs.FS, readModel func(string) ([]byte, error)) (*Set, error) {
	s := &Set{Files: map[string]*bundle.Asset{}, Config: Config{Wasm: map[string]string{}, Models: map[string]string{}}}
	js, err := fs.ReadFile(fsys, "gen/tf.js")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotBuilt
	}
	if err != nil {
		return nil, fmt.Errorf("tracker: %w", err)
	}
	if s.Config.Lib, err = s.add("tracker-tf", ".js", bundle.JS, js); err != nil {
		return nil, err
	}
	for _, name := range wasmFiles {
		b, err := fs.ReadFile(fsys, "gen/"+name)
		if err != nil {
			return nil, fmt.Errorf("tracker: %w (%w)", err, ErrNotBuilt)
		}
		if s.Config.Wasm[name], err = s.add("tracker-"+name[:len(name)-len(".wasm")], ".wasm", bundle.Wasm, b); err != nil {
			return nil, err
		}
	}
	for key, m := range trackerModels {
		if s.Config.Models[key], err = s.addModel(m, readModel); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// addModel adds a graph model's weight files and its model.json, whose
// weight paths are rewritten to the weights' hashed names (TensorFlow.js
// fetches them relative to the model.json).
func (s *Set) addModel(name string, readModel func(string) ([]byte, error)) (string, error) {
	raw, err := readModel(name + ".json")
	if err != nil {
		return "", fmt.Errorf("tracker: %w", err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", fmt.Errorf("tracker: model %s: %w", name, err)
	}
	var manifest []map[string]json.RawMessage
	if err := json.Unmarshal(doc["weightsManifest"], &manifest); err != nil {
		return "", fmt.Errorf("tracker: model %s weightsManifest: %w", name, err)
	}
	for _, group := range manifest {
		var paths []string
		if err := json.Unmarshal(group["paths"], &paths); err != nil {
			return "", fmt.Errorf("tracker: model %s paths: %w", name, err)
		}
		for i, p := range paths {
			w, err := readModel(path.Join(path.Dir(name), p))
			if err != nil {
				return "", fmt.Errorf("tracker: %w", err)
			}
			served, err := s.add("tracker-"+trimExt(p), path.Ext(p), bundle.Opaque, w)
			if err != nil {
				return "", err
			}
			paths[i] = path.Base(served)
		}
		if group["paths"], err = json.Marshal(paths); err != nil {
			return "", err
		}
	}
	if doc["weightsManifest"], err = json.Marshal(manifest); err != nil {
		return "", err
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	// Opaque bytes to everyone but TensorFlow.js, which parses them itself
	// (like the weights).
	return s.add("tracker-"+path.Base(name), ".json", bundle.Opaque, out)
}

// add packs body under "<stem>-<16 hex><ext>" and returns its path.
func (s *Set) add(stem, ext, ctype string, body []byte) (string, error) {
	f, err := bundle.NewAsset(stem, ext, ctype, body)
	if err != nil {
		return "", fmt.Errorf("tracker: %w", err)
	}
	s.Files[f.Name] = f
	return f.Path(), nil
}

func trimExt(p string) string { return path.Base(p)[:len(path.Base(p))-len(path.Ext(p))] }
