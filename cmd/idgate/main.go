package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand. Name may hold a space ("account create").
type command struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.Name]; dup {
		panic("duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches to the longest registered name that prefixes args
// ("account create" before "account").
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for n := min(len(args), 3); n >= 1; n-- {
		if c, ok := commands[strings.Join(args[:n], " ")]; ok {
			if err := c.Run(ctx, args[n:], stdin, stdout, stderr); err != nil {
				fmt.Fprintf(stderr, "idgate %s: %v\n", c.Name, err)
				return 1
			}
			return 0
		}
	}
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: idgate <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-24s %s\n", n, commands[n].Summary)
	}
}
