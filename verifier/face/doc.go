// Package face is the face engine: detection, landmarks, descriptors, match
// tiers and passive anti-spoof scores, computed by our own Go code from
// registry model files (`make models`).
//
// Where to look: engine.go (Load, Engine, and Analyzer: Analyze, Single,
// Describe, Compare; one Analyzer per goroutine), select.go (which faces in
// a photo count), margin.go (the retry inside a black border for tight
// crops). The parts are subpackages: blazeface (detection), facemesh
// (landmarks), facerec (descriptors), match (distance to tier), spoof
// (passive anti-spoof), pose (head orientation and eye openness), liveness
// (the active challenge), tensor and tfjs (the numeric core and model
// loading), models (model files checked by sha256).
package face
