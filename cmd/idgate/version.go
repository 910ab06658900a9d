package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
)

// version is stamped at build time: go build -ldflags "-X main.version=v1.2.3".
var version = "dev"

func init() {
	register(command{
		Name:    "version",
		Summary: "print the idgate version",
		Run: func(_ context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) error {
			_, err := fmt.Fprintf(stdout, "idgate %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	})
}
