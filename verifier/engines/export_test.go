package engines

import "context"

// Hold takes a worker until release is called, so tests can saturate the
// pool; it returns the error run gives when none frees up.
func (e *Engines) Hold() (release func(), err error) {
	held, done := make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- e.run(context.Background(), func(*worker) error {
			close(held)
			<-done
			return nil
		})
	}()
	select {
	case <-held:
		return func() { close(done); <-errc }, nil
	case err := <-errc:
		return nil, err
	}
}

// ExaminePassportZone is Passport with everything it measured: what
// ExaminePassport gives but for the visual zone, which Passport does not
// read (unless the zone's names need it), so a test of the zone and the
// page does not pay for its OCR.
func (e *Engines) ExaminePassportZone(ctx context.Context, data []byte) (PassportExam, error) {
	return e.examinePassport(ctx, data, false)
}
