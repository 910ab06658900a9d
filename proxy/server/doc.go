// Package server assembles the proxy for `idgate store serve`: its settings
// from the environment, the store file, the cache (Redis when configured,
// else in-process), the verifier client and the fiber app.
package server
