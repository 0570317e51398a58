package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/loupe-dev/loupe/model"
)

// limitsFromEnv sets the reading limits from LOUPE_MAX_LINE and
// LOUPE_MAX_RATIO, or their defaults: every run starts from them (the
// command line is run more than once in a test process), and a --max-line
// flag then overrides the line limit.
func limitsFromEnv() error {
	l := model.DefaultLimits()
	if s := os.Getenv("LOUPE_MAX_LINE"); s != "" {
		n, err := model.ParseSize(s)
		if err != nil {
			return usagef("LOUPE_MAX_LINE: %v", err)
		}
		l.MaxLine = n
	}
	if s := os.Getenv("LOUPE_MAX_RATIO"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return usagef("LOUPE_MAX_RATIO: %q is not a positive whole number", s)
		}
		l.MaxRatio = n
	}
	model.SetLimits(l)
	return nil
}

// maxLineFlag is --max-line SIZE: it sets the line limit as it is parsed.
type maxLineFlag struct{}

func (maxLineFlag) String() string { return "" }

func (maxLineFlag) Set(s string) error {
	n, err := model.ParseSize(s)
	if err != nil {
		return err
	}
	l := model.CurrentLimits()
	l.MaxLine = n
	model.SetLimits(l)
	return nil
}

// addLimitFlags adds the flags of the reading limits to a command's.
func addLimitFlags(fs *flag.FlagSet) {
	fs.Var(maxLineFlag{}, "max-line", fmt.Sprintf("refuse a line longer than `SIZE` (e.g. 1GiB; default %s, or $LOUPE_MAX_LINE)", model.FormatSize(model.DefaultMaxLine)))
}
