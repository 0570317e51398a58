package gen

// Module is the fake service's module path.
const Module = "github.com/acme/orders"

// newRepo returns the orders service as the agent finds it: customers exist,
// orders do not.
func newRepo() *world {
	w := &world{module: Module, branch: "feature/orders-table"}
	w.addFile("go.mod", "all", `
module github.com/acme/orders

go 1.23.4

require (
    github.com/go-chi/chi/v5 v5.1.0
    github.com/jackc/pgx/v5 v5.7.1
    github.com/testcontainers/testcontainers-go v0.34.0
    github.com/testcontainers/testcontainers-go/modules/postgres v0.34.0
)`)
	w.addFile("Makefile", "all", `
ENV ?= dev

.PHONY: build test vet generate migrate schema-diff schema-lint

build:
    go build ./...

test:
    go test ./...

vet:
    go vet ./...

# internal/gen is generated from api/openapi.yaml; never edit it by hand.
generate:
    oapi-codegen -config api/oapi-codegen.yaml api/openapi.yaml > internal/gen/ordersapi/api.gen.go

migrate:
    atlas schema apply --env $(ENV) --auto-approve

schema-diff:
    atlas schema diff --env $(ENV)

schema-lint:
    atlas schema lint --env $(ENV)`)
	w.addFile("atlas.hcl", "all", `
env "dev" {
  src = "file://db/schema"
  url = "postgres://orders:orders@localhost:5432/orders?sslmode=disable"
  dev = "docker://postgres/16/dev"
}

env "staging" {
  src = "file://db/schema"
  url = getenv("STAGING_DATABASE_URL")
  dev = "docker://postgres/16/dev"
}`)
	w.addFile("db/schema/customers.sql", "all", `
-- Customers of the shop. Emails are unique, case-insensitively.
CREATE TABLE customers (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email      text        NOT NULL,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX customers_email ON customers (lower(email));`)
	w.addFile("cmd/ordersd/main.go", "all", `
// Command ordersd serves the orders API.
package main

import (
    "context"
    "log/slog"
    "os"
    "os/signal"
    "syscall"

    "github.com/acme/orders/internal/server"
)

func main() {
    ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
    defer stop()

    cfg, err := server.ConfigFromEnv()
    if err != nil {
        slog.Error("config", "err", err)
        os.Exit(2)
    }
    if err := server.Run(ctx, cfg); err != nil {
        slog.Error("server stopped", "err", err)
        os.Exit(1)
    }
}`)
	w.addFile("internal/server/server.go", "head", `
// Package server wires the stores and the HTTP API together.
package server

import (
    "context"
    "errors"
    "fmt"
    "log/slog"
    "net/http"
    "os"
    "time"

    "github.com/acme/orders/internal/api"
)`, "config", `
// Config is read from the environment.
type Config struct {
    Addr        string
    DatabaseURL string
}

// ConfigFromEnv reads ORDERS_ADDR and DATABASE_URL.
func ConfigFromEnv() (Config, error) {
    cfg := Config{Addr: os.Getenv("ORDERS_ADDR"), DatabaseURL: os.Getenv("DATABASE_URL")}
    if cfg.Addr == "" {
        cfg.Addr = ":8080"
    }
    if cfg.DatabaseURL == "" {
        return cfg, errors.New("DATABASE_URL is not set")
    }
    return cfg, nil
}`, "run", `
// Run serves until ctx is cancelled.
func Run(ctx context.Context, cfg Config) error {
    deps, closeDB, err := openStores(ctx, cfg.DatabaseURL)
    if err != nil {
        return fmt.Errorf("open stores: %w", err)
    }
    defer closeDB()

    srv := &http.Server{
        Addr:              cfg.Addr,
        Handler:           api.Routes(deps),
        ReadHeaderTimeout: 5 * time.Second,
    }
    go func() {
        <-ctx.Done()
        shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
        defer cancel()
        srv.Shutdown(shutdown)
    }()
    slog.Info("listening", "addr", cfg.Addr)
    if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
        return err
    }
    return nil
}`)
	w.addFile("internal/server/store.go", "head", serverHead, "pool", `
// Pool settings for the service's database/sql pool. The staging database
// allows 100 connections shared by four replicas of ordersd.
const (
    maxOpenConns    = 20
    maxIdleConns    = 5
    connMaxLifetime = 30 * time.Minute
)`, "open", serverOpen)
	addCustomers(w)
	addAPI(w)
	w.addFile("internal/platform/pgtest/pgtest.go", "all", `
// Package pgtest starts a throwaway Postgres for tests and loads the schema.
package pgtest

import (
    "context"
    "database/sql"
    "os"
    "path/filepath"
    "sort"
    "testing"

    _ "github.com/jackc/pgx/v5/stdlib"
    "github.com/testcontainers/testcontainers-go/modules/postgres"
)

// New returns a database with every .sql file of schemaDir applied, in name order.
func New(t testing.TB, schemaDir string) *sql.DB {
    t.Helper()
    ctx := context.Background()
    ctr, err := postgres.Run(ctx, "postgres:16-alpine", postgres.BasicWaitStrategies())
    if err != nil {
        t.Fatalf("start postgres: %v", err)
    }
    t.Cleanup(func() { ctr.Terminate(ctx) })
    url, err := ctr.ConnectionString(ctx, "sslmode=disable")
    if err != nil {
        t.Fatal(err)
    }
    db, err := sql.Open("pgx", url)
    if err != nil {
        t.Fatal(err)
    }
    files, _ := filepath.Glob(filepath.Join(schemaDir, "*.sql"))
    sort.Strings(files)
    for _, f := range files {
        b, err := os.ReadFile(f)
        if err != nil {
            t.Fatal(err)
        }
        if _, err := db.ExecContext(ctx, string(b)); err != nil {
            t.Fatalf("apply %s: %v", f, err)
        }
    }
    return db
}`)
	w.addFile("docs/api.md", "intro", `
# Orders API

All endpoints take and return JSON. Errors are returned as
‵{"error": "message"}‵ with a 4xx or 5xx status.`, "customers", `
## Customers

### GET /v1/customers/{id}

Returns one customer.

    {"id": 7, "email": "ada@example.com", "name": "Ada", "created_at": "2026-10-01T12:00:00Z"}

Status 404 when there is no such customer.`)
	w.addFile(".github/workflows/ci.yml", "all", `
name: ci
on:
  push:
    branches-ignore: [main]
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version-file: go.mod
      - run: go vet ./...
      - run: go test -race ./...
      - run: go test ./... -run Integration -timeout 30m`)
	w.addFile("api/openapi.yaml", "head", openapiHead, "customers", openapiCustomers, "schemas", openapiSchemas)
	w.addFile("api/oapi-codegen.yaml", "all", "package: ordersapi\ngenerate:\n  models: true\n  client: true\noutput-options:\n  skip-prune: true")
	genFile := w.addFile("internal/gen/ordersapi/api.gen.go", "all", generatedAPI(false))
	genFile.gen = true
	return w
}

func addCustomers(w *world) {
	w.addFile("internal/customers/store.go", "head", `
// Package customers stores the shop's customers.
package customers

import (
    "context"
    "database/sql"
    "errors"
    "fmt"
    "time"
)`, "types", `
// Customer is one customer of the shop.
type Customer struct {
    ID        int64     ‵json:"id"‵
    Email     string    ‵json:"email"‵
    Name      string    ‵json:"name"‵
    CreatedAt time.Time ‵json:"created_at"‵
}

// ErrNotFound is returned when no customer has the requested id.
var ErrNotFound = errors.New("customers: not found")`, "store", `
// Store reads and writes customers.
type Store struct {
    db *sql.DB
}

// NewStore returns a Store using db.
func NewStore(db *sql.DB) *Store {
    return &Store{db: db}
}`, "get", `
// Get returns the customer with the given id, or ErrNotFound.
func (s *Store) Get(ctx context.Context, id int64) (*Customer, error) {
    c := &Customer{ID: id}
    err := s.db.QueryRowContext(ctx,
        ‵SELECT email, name, created_at FROM customers WHERE id = $1‵, id,
    ).Scan(&c.Email, &c.Name, &c.CreatedAt)
    if errors.Is(err, sql.ErrNoRows) {
        return nil, ErrNotFound
    }
    if err != nil {
        return nil, fmt.Errorf("get customer %d: %w", id, err)
    }
    return c, nil
}`)
	w.addFile("internal/customers/store_test.go", "all", `
package customers_test

import (
    "context"
    "errors"
    "testing"

    "github.com/acme/orders/internal/customers"
    "github.com/acme/orders/internal/platform/pgtest"
)

func TestGetCustomer_NotFound(t *testing.T) {
    s := customers.NewStore(pgtest.New(t, "../../db/schema"))
    _, err := s.Get(context.Background(), 42)
    if !errors.Is(err, customers.ErrNotFound) {
        t.Fatalf("err = %v, want ErrNotFound", err)
    }
}`)
}

func addAPI(w *world) {
	w.addFile("internal/api/routes.go", "head", routesHead, "deps", routesDeps, "routes", routesBlock("", 0))
	w.addFile("internal/api/respond.go", "all", `
package api

import (
    "encoding/json"
    "net/http"
)

// writeJSON writes v as JSON with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
    w.Header().Set("Content-Type", "application/json")
    w.WriteHeader(status)
    json.NewEncoder(w).Encode(v)
}

// writeError writes {"error": msg} with the given status.
func writeError(w http.ResponseWriter, status int, msg string) {
    writeJSON(w, status, map[string]string{"error": msg})
}`)
	w.addFile("internal/api/customers.go", "all", `
package api

import (
    "errors"
    "net/http"
    "strconv"

    "github.com/acme/orders/internal/customers"
    "github.com/go-chi/chi/v5"
)

type customersHandler struct {
    store *customers.Store
}

func (h *customersHandler) get(w http.ResponseWriter, r *http.Request) {
    id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
    if err != nil {
        writeError(w, http.StatusBadRequest, "id must be an integer")
        return
    }
    c, err := h.store.Get(r.Context(), id)
    if errors.Is(err, customers.ErrNotFound) {
        writeError(w, http.StatusNotFound, "customer not found")
        return
    }
    if err != nil {
        writeError(w, http.StatusInternalServerError, "could not load customer")
        return
    }
    writeJSON(w, http.StatusOK, c)
}`)
}

// The server's store wiring and the API's head and Deps as the agent finds
// them, before the orders store exists; storeStep adds it.

const serverHead = `
package server

import (
    "context"
    "database/sql"
    "fmt"
    "time"

    "github.com/acme/orders/internal/api"
    "github.com/acme/orders/internal/customers"
    _ "github.com/jackc/pgx/v5/stdlib"
)`

const serverOpen = `
// openStores connects to Postgres and builds every store the API needs.
func openStores(ctx context.Context, url string) (api.Deps, func(), error) {
    db, err := sql.Open("pgx", url)
    if err != nil {
        return api.Deps{}, nil, err
    }
    db.SetMaxOpenConns(maxOpenConns)
    db.SetMaxIdleConns(maxIdleConns)
    db.SetConnMaxLifetime(connMaxLifetime)

    ping, cancel := context.WithTimeout(ctx, 5*time.Second)
    defer cancel()
    if err := db.PingContext(ping); err != nil {
        db.Close()
        return api.Deps{}, nil, fmt.Errorf("ping database: %w", err)
    }

    deps := api.Deps{
        Customers: customers.NewStore(db),
    }
    return deps, func() { db.Close() }, nil
}`

const routesHead = `
// Package api is the HTTP API of the orders service.
package api

import (
    "net/http"

    "github.com/acme/orders/internal/customers"
    "github.com/go-chi/chi/v5"
    "github.com/go-chi/chi/v5/middleware"
)`

const routesDeps = `
// Deps are the stores the handlers use.
type Deps struct {
    Customers *customers.Store
}`
