package main

import (
	"github.com/idgate/idgate/verifier/face/liveness"
)

// The second real set: testdata/people (testdata/README.md has the
// sources, commits and licences), five more GRID speakers from the same
// LipNet commit as liveness/real's, as 10 fps frames f001.jpg…f030.jpg
// (3 s). None of them blinks or turns: each reads a sentence in the
// studio, facing the camera. Labelled by eye on every frame at 10 fps
// and at the clip's own 25 fps, and against the analyser's yaw and eye
// readings (the mean eye ratio against the clip's median):
//
//	grid_lbbc2a  a woman, dark hair, pink top: yaw +7° to +11°, eyes open
//	             throughout (0.95 of her median at the least, 25 fps too)
//	grid_lrwp9a  a woman, brown hair, green top: yaw +3° to +8°; she
//	             lowers her gaze at 15–17 and 27–30 (lids half down, the
//	             eyes still seen: 0.74–0.87 of her median, 0.63 in the
//	             clip's last frame), no blink seen whole
//	grid_lwbsza  an older woman, grey curly hair: yaw +4° to +9°, eyes
//	             open throughout (0.98 at the least)
//	grid_sbia1a  a man, short dark hair: yaw +5° to +11°, gaze lowered
//	             from 20 (0.86–0.93), no blink
//	grid_swiz3n  a man with dark skin and a moustache: yaw +2° to +6°,
//	             eyes open throughout (0.96 at the least)
//
// So they are real faces at rest: asked to blink or to turn, each must
// be refused (realIdle), and they are five more people for the
// same-person check (poses.go) and for splices (peopleSplices).
var peopleClips = []realClip{
	{name: "grid_lbbc2a", idle: idleWindows(), inPeople: true},
	{name: "grid_lrwp9a", idle: idleWindows(), inPeople: true},
	{name: "grid_lwbsza", idle: idleWindows(), inPeople: true},
	{name: "grid_sbia1a", idle: idleWindows(), inPeople: true},
	{name: "grid_swiz3n", idle: idleWindows(), inPeople: true},
}

// peopleSet is the path testkit finds the set by: a frame every clip
// has.
var peopleSet = []string{"testdata", "people", "grid_swiz3n", "f030.jpg"}

// realIdle is the class of a real face not doing the step asked: like an
// attack, it must not pass (the goal is none), but it is measured apart
// from the attack classes, which need every set.
const realIdle = "real face, step not done"

// idleWindows asks a GRID clip's whole 3 s for each step alone.
func idleWindows() []window {
	var out []window
	for _, st := range []liveness.Step{liveness.Blink, liveness.TurnLeft, liveness.TurnRight} {
		out = append(out, window{name: "asked " + string(st), span: span10{1, 30}, steps: steps3(st)})
	}
	return out
}

// peopleSplices are splices of an existing GRID speaker who blinks in
// frames 1–15 and a new speaker in 16–30: the blink is done, only the
// same-person check can refuse them.
var peopleSplices = []struct{ a, b string }{
	{"grid_brbk7n", "grid_lbbc2a"}, {"grid_lbax4n", "grid_swiz3n"}, {"grid_id2_swwp2s", "grid_lwbsza"},
	{"grid_brbk7n", "grid_sbia1a"}, {"grid_lbax4n", "grid_lrwp9a"},
}

// realClips are the clips of the real sets that are here.
func (s *source) realClips() []realClip {
	if s.people == "" {
		return realClips
	}
	return append(append([]realClip(nil), realClips...), peopleClips...)
}
