package main

import (
	"slices"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/verify"
)

// verifyStreamed opens and verifies one transcript at once: each event goes
// to the verifier as it is decoded and is not kept (verify.Stream), so the
// reading overlaps the verification and memory is bounded by what the
// verifier keeps, not by the file (issue 20). The result is Run's on the
// whole transcript. The transcript returned has no events; err is
// openTranscript's, and res is nil with it. The result is packed as it is
// made (verify.Options.Packer) and the report writers read it back: a long
// run's report holds a few bytes per item result, not a whole one.
func verifyStreamed(e *env, path, from string, opt verify.Options) (res *verify.Result, t *model.Transcript, err error) {
	var s *verify.Stream
	var consumers []model.Consumer // the meta's when the stream began
	opt.Packer = verify.NewPacker()
	start := func(t *model.Transcript) {
		consumers = slices.Clone(t.Meta.Consumers)
		s = verify.NewStream(t, opt, nil)
	}
	each := func(t *model.Transcript, ev model.Event) {
		if s == nil {
			start(t)
		}
		s.Push(ev)
	}
	fo := formats.Options{From: from}
	if path == "-" {
		t, err = formats.OpenReaderEach(e.stdin, "-", fo, each)
	} else {
		t, err = formats.OpenEach(path, fo, each)
	}
	if s == nil && err == nil {
		start(t)
	}
	if s != nil {
		res = s.Finish() // it stops the stream's goroutines, even after an error
	}
	if err != nil {
		return nil, nil, err
	}
	if !slices.EqualFunc(consumers, t.Meta.Consumers, sameConsumer) && path != "-" {
		// A meta line after the first event declared consumers the stream
		// did not know when it began: the file is read again, whole, with
		// them (a meta line belongs first; it is warned about).
		if t, err = openTranscript(e, path, from); err != nil {
			return nil, nil, err
		}
		return verify.Run(t, opt), t, nil
	}
	return res, t, nil
}

func sameConsumer(a, b model.Consumer) bool {
	return a.Name == b.Name && a.Strict == b.Strict && slices.Equal(a.Requires, b.Requires)
}
