package gen

import (
	"fmt"
	"slices"
	"strings"
)

const (
	pAPI     = "internal/api/orders.go"
	pAPITest = "internal/api/orders_test.go"
)

// apiCode is the state of internal/api/orders.go: each field is a feature or
// fix that the run adds at some point. Blocks are rendered from it.
type apiCode struct {
	created   bool // create answers 201 (the first version says 200)
	limitBody bool // create caps the body and rejects unknown fields
	logCreate bool
	metrics   bool
	timeout   bool // store calls run under a 5s timeout
	notFound  bool // get maps ErrNotFound to 404
	listWrap  bool // the list is wrapped in {"orders": [...]}
	cursor    bool // the list is paginated with a cursor
	capLimit  bool // limit is capped at 100
	cancel    bool
}

func (a apiCode) head() string {
	imports := []string{`"encoding/json"`, `"net/http"`, `"strconv"`}
	if a.notFound || a.cancel {
		imports = append(imports, `"errors"`)
	}
	if a.timeout {
		imports = append(imports, `"context"`, `"time"`)
	}
	if a.logCreate {
		imports = append(imports, `"log/slog"`)
	}
	slices.Sort(imports)
	third := []string{`"github.com/acme/orders/internal/orders"`, `"github.com/go-chi/chi/v5"`}
	if a.metrics {
		third = append([]string{`"github.com/acme/orders/internal/metrics"`}, third...)
	}
	return "\npackage api\n\nimport (\n    " + strings.Join(imports, "\n    ") + "\n\n    " + strings.Join(third, "\n    ") + "\n)"
}

const apiHandler = `
// ordersHandler serves the order endpoints.
type ordersHandler struct {
    store *orders.Store
}

func newOrdersHandler(store *orders.Store) *ordersHandler {
    return &ordersHandler{store: store}
}

// pathID parses the {id} URL parameter.
func pathID(r *http.Request) (int64, bool) {
    id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
    return id, err == nil && id > 0
}`

// ctx is how a handler gets its context for store calls.
func (a apiCode) ctx() string {
	if a.timeout {
		return "\n    ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)\n    defer cancel()"
	}
	return "\n    ctx := r.Context()"
}

func (a apiCode) create() string {
	var b strings.Builder
	if a.timeout {
		b.WriteString("\n// storeTimeout bounds every store call of a request.\nconst storeTimeout = 5 * time.Second\n")
	}
	if a.limitBody {
		b.WriteString("\n// maxBodyBytes caps request bodies.\nconst maxBodyBytes = 1 << 20\n")
	}
	b.WriteString(`
type createOrderRequest struct {
    CustomerID int64             ‵json:"customer_id"‵
    Currency   string            ‵json:"currency"‵
    Items      []orders.LineItem ‵json:"items"‵
}

// create handles POST /v1/orders.
func (h *ordersHandler) create(w http.ResponseWriter, r *http.Request) {
    var req createOrderRequest`)
	if a.limitBody {
		b.WriteString(`
    dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
    dec.DisallowUnknownFields()
    if err := dec.Decode(&req); err != nil {`)
	} else {
		b.WriteString(`
    if err := json.NewDecoder(r.Body).Decode(&req); err != nil {`)
	}
	b.WriteString(`
        writeError(w, http.StatusBadRequest, "invalid JSON body")
        return
    }
    o := &orders.Order{CustomerID: req.CustomerID, Currency: req.Currency, Items: req.Items}
    if err := o.Validate(); err != nil {
        writeError(w, http.StatusUnprocessableEntity, err.Error())
        return
    }` + a.ctx() + `
    if err := h.store.Create(ctx, o); err != nil {
        writeError(w, http.StatusInternalServerError, "could not create order")
        return
    }`)
	if a.logCreate {
		b.WriteString(`
    slog.InfoContext(ctx, "order created", "order_id", o.ID, "customer_id", o.CustomerID, "total", o.Total())`)
	}
	if a.metrics {
		b.WriteString(`
    metrics.OrdersCreated.WithLabelValues(o.Currency).Inc()`)
	}
	status := "StatusOK"
	if a.created {
		status = "StatusCreated"
	}
	fmt.Fprintf(&b, "\n    writeJSON(w, http.%s, o)\n}", status)
	return b.String()
}

func (a apiCode) get() string {
	nf := ""
	if a.notFound {
		nf = `
    if errors.Is(err, orders.ErrNotFound) {
        writeError(w, http.StatusNotFound, "order not found")
        return
    }`
	}
	return `
// get handles GET /v1/orders/{id}.
func (h *ordersHandler) get(w http.ResponseWriter, r *http.Request) {
    id, ok := pathID(r)
    if !ok {
        writeError(w, http.StatusBadRequest, "id must be a positive integer")
        return
    }` + a.ctx() + `
    o, err := h.store.Get(ctx, id)` + nf + `
    if err != nil {
        writeError(w, http.StatusInternalServerError, "could not load order")
        return
    }
    writeJSON(w, http.StatusOK, o)
}`
}

func (a apiCode) list() string {
	var b strings.Builder
	b.WriteString(`
// listByCustomer handles GET /v1/customers/{id}/orders.
func (h *ordersHandler) listByCustomer(w http.ResponseWriter, r *http.Request) {
    customerID, ok := pathID(r)
    if !ok {
        writeError(w, http.StatusBadRequest, "id must be a positive integer")
        return
    }
    limit := orders.DefaultLimit
    if s := r.URL.Query().Get("limit"); s != "" {
        n, err := strconv.Atoi(s)
        if err != nil || n <= 0 {
            writeError(w, http.StatusBadRequest, "limit must be a positive integer")
            return
        }
        limit = n
    }`)
	if a.capLimit {
		b.WriteString(`
    limit = min(limit, orders.MaxLimit)`)
	}
	if a.cursor {
		b.WriteString(`
    var after orders.Cursor
    if s := r.URL.Query().Get("cursor"); s != "" {
        c, err := orders.DecodeCursor(s)
        if err != nil {
            writeError(w, http.StatusBadRequest, "malformed cursor")
            return
        }
        after = c
    }` + a.ctx() + `
    page, err := h.store.ListPage(ctx, customerID, after, limit)
    if err != nil {
        writeError(w, http.StatusInternalServerError, "could not list orders")
        return
    }
    writeJSON(w, http.StatusOK, map[string]any{"orders": page.Orders, "next_cursor": page.Cursor})
}`)
		return b.String()
	}
	b.WriteString(a.ctx() + `
    list, err := h.store.ListByCustomer(ctx, customerID, limit)
    if err != nil {
        writeError(w, http.StatusInternalServerError, "could not list orders")
        return
    }`)
	if a.listWrap {
		b.WriteString("\n    writeJSON(w, http.StatusOK, map[string]any{\"orders\": list})\n}")
	} else {
		b.WriteString("\n    writeJSON(w, http.StatusOK, list)\n}")
	}
	return b.String()
}

func (a apiCode) cancelH(conflict bool) string {
	c := ""
	if conflict {
		c = `
    if errors.Is(err, orders.ErrConflict) {
        writeError(w, http.StatusConflict, "only pending orders can be cancelled")
        return
    }`
	}
	return `
// cancel handles POST /v1/orders/{id}/cancel.
func (h *ordersHandler) cancel(w http.ResponseWriter, r *http.Request) {
    id, ok := pathID(r)
    if !ok {
        writeError(w, http.StatusBadRequest, "id must be a positive integer")
        return
    }` + a.ctx() + `
    o, err := h.store.Cancel(ctx, id)
    if errors.Is(err, orders.ErrNotFound) {
        writeError(w, http.StatusNotFound, "order not found")
        return
    }` + c + `
    if err != nil {
        writeError(w, http.StatusInternalServerError, "could not cancel order")
        return
    }
    writeJSON(w, http.StatusOK, o)
}`
}

// routesBlock renders Routes with the order endpoints registered so far:
// the first n, served by the handler ctor makes (none when ctor is "").
func routesBlock(ctor string, n int) string {
	lines := []string{
		`r.Post("/v1/orders", oh.create)`,
		`r.Get("/v1/orders/{id}", oh.get)`,
		`r.Get("/v1/customers/{id}/orders", oh.listByCustomer)`,
		`r.Post("/v1/orders/{id}/cancel", oh.cancel)`,
	}
	orders := ""
	if ctor != "" {
		orders = `

    oh := ` + ctor + `(deps.Orders)
    ` + strings.Join(lines[:n], "\n    ")
	}
	return `
// Routes returns the API's router.
func Routes(deps Deps) http.Handler {
    r := chi.NewRouter()
    r.Use(middleware.RequestID, middleware.RealIP, middleware.Recoverer)
    r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })

    ch := &customersHandler{store: deps.Customers}
    r.Get("/v1/customers/{id}", ch.get)` + orders + `
    return r
}`
}

const apiTestHead = `
package api

import (
    "fmt"
    "net/http"
    "net/http/httptest"
    "strings"
    "testing"

    "github.com/acme/orders/internal/customers"
    "github.com/acme/orders/internal/orders"
    "github.com/acme/orders/internal/platform/pgtest"
)

// newTestServer serves the API on a fresh database holding customers 7 and 8.
func newTestServer(t *testing.T) *httptest.Server {
    t.Helper()
    db := pgtest.New(t, "../../db/schema")` + seedCustomers + `
    srv := httptest.NewServer(Routes(Deps{Customers: customers.NewStore(db), Orders: orders.NewStore(db)}))
    t.Cleanup(srv.Close)
    return srv
}

func post(t *testing.T, url, body string) *http.Response {
    t.Helper()
    resp, err := http.Post(url, "application/json", strings.NewReader(body))
    if err != nil {
        t.Fatal(err)
    }
    t.Cleanup(func() { resp.Body.Close() })
    return resp
}

const orderBody = ‵{"customer_id": 7, "currency": "EUR", "items": [{"sku": "SKU-1", "quantity": 2, "unit_amount": 1250}]}‵`

func apiTestCreate(extra string) string {
	return `
func TestCreateOrderHandler(t *testing.T) {
    srv := newTestServer(t)
    tests := []struct {
        name string
        body string
        want int
    }{
        {"created", orderBody, http.StatusCreated},
        {"bad json", ‵{"customer_id": 7,‵, http.StatusBadRequest},
        {"no items", ‵{"customer_id": 7, "currency": "EUR", "items": []}‵, http.StatusUnprocessableEntity},` + extra + `
    }
    for _, tt := range tests {
        t.Run(tt.name, func(t *testing.T) {
            resp := post(t, srv.URL+"/v1/orders", tt.body)
            if resp.StatusCode != tt.want {
                t.Fatalf("status = %d, want %d", resp.StatusCode, tt.want)
            }
        })
    }
}`
}

const apiTestGet = `
func TestGetOrderHandler(t *testing.T) {
    srv := newTestServer(t)
    post(t, srv.URL+"/v1/orders", orderBody)
    tests := []struct {
        path string
        want int
    }{
        {"/v1/orders/1", http.StatusOK},
        {"/v1/orders/99", http.StatusNotFound},
        {"/v1/orders/abc", http.StatusBadRequest},
    }
    for _, tt := range tests {
        t.Run(tt.path, func(t *testing.T) {
            resp, err := http.Get(srv.URL + tt.path)
            if err != nil {
                t.Fatal(err)
            }
            resp.Body.Close()
            if resp.StatusCode != tt.want {
                t.Errorf("GET %s: status = %d, want %d", tt.path, resp.StatusCode, tt.want)
            }
        })
    }
}`

const apiTestList = `
func TestListCustomerOrdersHandler(t *testing.T) {
    srv := newTestServer(t)
    for i := 0; i < 3; i++ {
        post(t, srv.URL+"/v1/orders", orderBody)
    }
    resp, err := http.Get(srv.URL + "/v1/customers/7/orders?limit=10")
    if err != nil {
        t.Fatal(err)
    }
    defer resp.Body.Close()
    var body struct {
        Orders []orders.Order ‵json:"orders"‵
    }
    if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
        t.Fatalf("decode: %v", err)
    }
    if len(body.Orders) != 3 {
        t.Errorf("got %d orders, want 3", len(body.Orders))
    }
}`
