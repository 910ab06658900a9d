// Package storefile keeps the proxy's store configurations in one JSON file
// (IDGATE_PROXY_STORES), secrets sealed with AES-256-GCM under the server
// key (IDGATE_PROXY_KEY). A file rather than tables beside the verifier's:
// the configuration is small, operator-owned and changes rarely; a file can
// be reviewed, versioned and mounted as a secret into every instance, and it
// keeps the proxy free of schema migrations in the verifier's database. All
// runtime state lives in the store's own metafields and the cache.
package storefile
