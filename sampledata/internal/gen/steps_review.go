package gen

import (
	"fmt"
	"time"
)

// Late steps of the migration run: the API docs, review comments and the
// metric.

const docsOrders = `
## Orders

### POST /v1/orders

Creates an order. Body:

    {"customer_id": 7, "currency": "EUR", "items": [{"sku": "SKU-1", "quantity": 2, "unit_amount": 1250}]}

Answers 201 with the stored order, 400 for a malformed body or an unknown
field, 422 when the order is invalid (no items, a bad currency, a quantity
below 1).

### GET /v1/orders/{id}

Returns one order with its items; 404 when there is no such order.

### GET /v1/customers/{id}/orders

Lists a customer's orders, newest first, without items. Query parameters:
‵limit‵ (default 50, at most 100) and ‵cursor‵ (the ‵next_cursor‵ of the
previous page). ‵next_cursor‵ is empty on the last page.

### POST /v1/orders/{id}/cancel

Cancels an unpaid order and returns it; 409 when the order is paid, shipped
or already cancelled.`

func docsStep() *step {
	return &step{
		intro:  "The handler signatures have not changed since the pagination work, so the API docs can describe them now.",
		reads:  []string{"docs/api.md", pAPI},
		code:   []change{{"docs/api.md", "orders", "customers", docsOrders}},
		checks: []string{},
		fact:   "docs/api.md documents the four order endpoints, the limit and cursor parameters and the error statuses",
		major:  true,
	}
}

func wrapScanStep() *step {
	return &step{
		intro: "Review comment on items(): the scan error is returned bare. Wrapping it with the order id like the other paths.",
		code:  []change{{pStore, "items", "", fmt.Sprintf(storeItems, `fmt.Errorf("scan item of order %d: %w", orderID, err)`)}},
		test:  "go test ./internal/orders/...",
		fact:  "items() wraps scan errors with the order id",
	}
}

func negativeAmountStep() *step {
	check := `
        if item.UnitAmount < 0 {
            return fmt.Errorf("%w: item %d (%s): unit_amount must not be negative", ErrInvalid, i, item.SKU)
        }`
	row := `
        {"negative amount", func(o *Order) { o.Items[0].UnitAmount = -1 }, false},`
	return &step{
		intro:  "Review comment on Validate: a negative unit_amount gets through to the database CHECK and comes back as a 500. Validating it up front.",
		code:   []change{{pOrder, "validate", "", fmt.Sprintf(orderValidate, "%s", check)}},
		checks: []string{"go vet ./..."},
		tests:  []change{{pOrderTest, "validate", "", fmt.Sprintf(testValidate, row)}},
		test:   "go test ./internal/orders/ -run 'TestValidate' -v",
		fact:   "Validate rejects a negative unit_amount with ErrInvalid (422 instead of a database error)",
	}
}

const schemaItemsIndexSQL = `
-- items() reads the line items of one order.
CREATE INDEX order_items_by_order ON order_items (order_id);`

func itemsIndexStep() *step {
	return &step{
		intro:  "Review comment: order_items has no index on order_id, so Get scans the table for every order.",
		code:   []change{{pSchema, "items_index", "index", schemaItemsIndexSQL}},
		checks: []string{"make schema-lint ENV=dev", "go test ./internal/orders/..."},
		outputs: map[string]func(*emitter) string{
			"make schema-lint ENV=dev": lintOK,
		},
		fact: "db/schema/orders.sql indexes order_items (order_id)",
	}
}

const metricsGo = `
// Package metrics holds the service's Prometheus metrics.
package metrics

import "github.com/prometheus/client_golang/prometheus"

// OrdersCreated counts created orders by currency.
var OrdersCreated = prometheus.NewCounterVec(prometheus.CounterOpts{
    Name: "orders_created_total",
    Help: "Orders created, by currency.",
}, []string{"currency"})

func init() {
    prometheus.MustRegister(OrdersCreated)
}`

const apiTestMetrics = `
func TestCreateOrderHandler_Metrics(t *testing.T) {
    srv := newTestServer(t)
    before := testutil.ToFloat64(metrics.OrdersCreated.WithLabelValues("EUR"))
    post(t, srv.URL+"/v1/orders", orderBody)
    if got := testutil.ToFloat64(metrics.OrdersCreated.WithLabelValues("EUR")) - before; got != 1 {
        t.Errorf("orders_created_total{currency=\"EUR\"} grew by %v, want 1", got)
    }
}`

// metricsStep adds the counter; go get changes go.mod on its own.
func (e *emitter) metricsStep(a *apiCode) {
	e.say("Adding the orders_created_total counter. The service has no Prometheus dependency yet; client_golang is the standard one.")
	e.bash("go get github.com/prometheus/client_golang@v1.20.5",
		"go: downloading github.com/prometheus/client_golang v1.20.5\ngo: downloading github.com/prometheus/client_model v0.6.1\ngo: downloading github.com/prometheus/common v0.55.0\ngo: added github.com/beorn7/perks v1.0.1\ngo: added github.com/cespare/xxhash/v2 v2.3.0\ngo: added github.com/prometheus/client_golang v1.20.5\ngo: added github.com/prometheus/client_model v0.6.1\ngo: added github.com/prometheus/common v0.55.0\ngo: added github.com/prometheus/procfs v0.15.1\n",
		false, 9*time.Second)
	e.w.set("go.mod", "all", replaceOnce(e.w.file("go.mod").block("all").text,
		"\tgithub.com/jackc/pgx/v5 v5.7.1\n", "\tgithub.com/jackc/pgx/v5 v5.7.1\n\tgithub.com/prometheus/client_golang v1.20.5\n"), "")
	a.metrics = true
	head := e.patch(pAPITest, "head", "\t\"github.com/acme/orders/internal/customers\"",
		"\t\"github.com/acme/orders/internal/customers\"\n\t\"github.com/acme/orders/internal/metrics\"")
	head = change{pAPITest, "head", "", replaceOnce(head.text, "\t\"github.com/acme/orders/internal/platform/pgtest\"",
		"\t\"github.com/acme/orders/internal/platform/pgtest\"\n\t\"github.com/prometheus/client_golang/prometheus/testutil\"")}
	e.runStep(&step{
		code: []change{
			{"internal/metrics/metrics.go", "all", "", metricsGo},
			{pAPI, "head", "", a.head()},
			{pAPI, "create", "", a.create()},
		},
		tests: []change{head, {pAPITest, "metrics", "create", apiTestMetrics}},
		test:  "go test ./internal/api/ -run 'TestCreateOrderHandler_Metrics' -v",
		fact:  "internal/metrics/metrics.go registers the orders_created_total counter (by currency); the create handler increments it",
		major: true,
	})
}

// reviewComments is what `gh pr view 4412 --comments` prints.
const reviewComments = `mhartmann (Member) • 3 comments
internal/orders/store.go:118
  items() returns the bare scan error; wrap it with the order id like the other paths.

internal/api/orders.go:47
  The store calls use the request context as is. Give them a timeout (5s is what customers uses in the gateway).

internal/api/orders.go:96
  limit is passed through to SQL unbounded. Cap it at MaxLimit.

--
priya-n (Member) • 2 comments
internal/orders/order.go:61
  A negative unit_amount reaches the CHECK constraint and comes back as a 500. Validate it.

db/schema/orders.sql:24
  order_items(order_id) needs an index; Get reads items per order.

--
mhartmann (Member) • Changes requested
  Looks good overall. Please address the comments above and ping me for another pass.
`
