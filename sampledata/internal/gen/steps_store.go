package gen

import (
	"fmt"
	"strings"
)

// The orders store: constructor, Create, Get, ListByCustomer, Validate and
// Total.

// storeHead is the head of store.go importing the given packages.
func storeHead(imports ...string) string {
	return "\npackage orders\n\nimport (\n    \"" + strings.Join(imports, "\"\n    \"") + "\"\n)"
}

const storeStruct = `
// Store reads and writes orders in Postgres.
type Store struct {
    db *sql.DB
}

// %s returns a Store using db.
func %s(db *sql.DB) *Store {
    return &Store{db: db}
}`

const (
	importCustomers = `    "github.com/acme/orders/internal/customers"`
	importOrders    = `    "github.com/acme/orders/internal/orders"`
)

func storeStep() *step {
	return &step{
		intro: "Adding the Store type and wiring it into the server next to the customers store.",
		reads: []string{pServer, pRoutes},
		code: []change{
			{pStore, "head", "", storeHead("database/sql")},
			{pStore, "store", "", fmt.Sprintf(storeStruct, "New", "New")},
			{pServer, "head", "", addLineAfter(serverHead, importCustomers, importOrders)},
			{pServer, "open", "", addLineAfter(serverOpen, "        Customers: customers.NewStore(db),", "        Orders:    orders.NewStore(db),")},
			{pRoutes, "head", "", addLineAfter(routesHead, importCustomers, importOrders)},
			{pRoutes, "deps", "", addLineAfter(routesDeps, "    Customers *customers.Store", "    Orders    *orders.Store")},
		},
		bugs: []*bug{{
			cmd: "go build ./...",
			out: func(e *emitter) string {
				l, c := e.w.lineOf(pServer, "orders.NewStore")
				return buildFail("internal/server", fmt.Sprintf("%s:%d:%d: undefined: orders.NewStore", pServer, l, c+7))
			},
			diag:  "The constructor is called New in internal/orders/store.go, while the server and the customers package use NewStore. Renaming it to NewStore for consistency.",
			fix:   []change{{pStore, "store", "", fmt.Sprintf(storeStruct, "NewStore", "NewStore")}},
			fixed: "renamed the constructor orders.New to orders.NewStore, matching customers.NewStore",
		}},
		outro: "The build is clean. The server builds an orders.Store and api.Deps carries it.",
		fact:  "internal/server/store.go builds orders.NewStore(db) into api.Deps.Orders",
		major: true,
	}
}

// seedCustomers is how the store and API tests' helpers fill a fresh
// database: customers 7 and 8.
const seedCustomers = `
    for _, id := range []int{7, 8} {
        _, err := db.Exec(‵INSERT INTO customers (id, email, name) OVERRIDING SYSTEM VALUE VALUES ($1, $2, 'Test')‵,
            id, fmt.Sprintf("c%d@example.com", id))
        if err != nil {
            t.Fatal(err)
        }
    }`

// storeTestHead is the head of orders_test.go with its helpers; errors is
// imported once a test needs it.
func storeTestHead(withErrors bool) string {
	if withErrors {
		return replaceOnce(storeTestHeadSrc, "    \"context\"\n", "    \"context\"\n    \"errors\"\n")
	}
	return storeTestHeadSrc
}

const storeTestHeadSrc = `
package orders_test

import (
    "context"
    "fmt"
    "testing"

    "github.com/acme/orders/internal/orders"
    "github.com/acme/orders/internal/platform/pgtest"
)

// newStore returns a Store on a fresh database holding customers 7 and 8.
func newStore(t *testing.T) *orders.Store {
    t.Helper()
    db := pgtest.New(t, "../../db/schema")` + seedCustomers + `
    return orders.NewStore(db)
}

func newOrder(customerID int64, skus ...string) *orders.Order {
    o := &orders.Order{CustomerID: customerID, Currency: "EUR"}
    for _, sku := range skus {
        o.Items = append(o.Items, orders.LineItem{SKU: sku, Quantity: 1, UnitAmount: 1250})
    }
    return o
}`

const storeCreate = `
// Create inserts o and its line items in one transaction and sets o.ID,
// o.Status and o.CreatedAt.
func (s *Store) Create(ctx context.Context, o *Order) error {
    tx, err := s.db.BeginTx(ctx, nil)
    if err != nil {
        return err
    }
    defer tx.Rollback()

    %s
    if err != nil {
        return fmt.Errorf("insert order: %%w", err)
    }
    for _, item := range o.Items {
        if _, err := tx.ExecContext(ctx,
            ‵INSERT INTO order_items (order_id, sku, quantity, unit_amount) VALUES ($1, $2, $3, $4)‵,
            o.ID, item.SKU, item.Quantity, item.UnitAmount,
        ); err != nil {
            return fmt.Errorf("insert item %%s: %%w", item.SKU, err)
        }
    }
    o.Status = StatusPending
    return tx.Commit()
}`

const createExec = `_, err = tx.ExecContext(ctx,
        ‵INSERT INTO orders (customer_id, currency) VALUES ($1, $2)‵, o.CustomerID, o.Currency)`

const createReturning = `err = tx.QueryRowContext(ctx,
        ‵INSERT INTO orders (customer_id, currency) VALUES ($1, $2) RETURNING id, created_at‵,
        o.CustomerID, o.Currency,
    ).Scan(&o.ID, &o.CreatedAt)`

const testCreate = `
func TestCreateOrder(t *testing.T) {
    s := newStore(t)
    o := newOrder(7, "SKU-1", "SKU-2")
    if err := s.Create(context.Background(), o); err != nil {
        t.Fatalf("Create: %v", err)
    }
    if got, want := o.ID, int64(1); got != want {
        t.Errorf("got %d, want %d", got, want)
    }
    if o.Status != orders.StatusPending {
        t.Errorf("status = %q, want %q", o.Status, orders.StatusPending)
    }
}`

func createStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestCreateOrder' -v"
	return &step{
		intro: "Store.Create: one transaction for the order row and its items.",
		code: []change{
			{pStore, "head", "", storeHead("context", "database/sql", "fmt")},
			{pStore, "create", "store", fmt.Sprintf(storeCreate, createExec)},
		},
		tests: []change{{pStoreTest, "head", "", storeTestHead(false)}, {pStoreTest, "create", "head", testCreate}},
		test:  cmd,
		bugs: []*bug{{
			cmd:     cmd,
			out:     failAt(pStoreTest, "TestCreateOrder", `t.Errorf("got %d, want %d"`, "got 0, want 1"),
			diag:    "TestCreateOrder fails with got 0, want 1: Create inserts the order with ExecContext and never reads the generated id back. Switching to QueryRowContext with RETURNING id, created_at.",
			fix:     []change{{pStore, "create", "", fmt.Sprintf(storeCreate, createReturning)}},
			fixed:   "Create now reads the generated id and created_at with RETURNING",
			confirm: true,
		}},
		fact:  "Store.Create inserts the order and its items in one transaction and reads id and created_at back with RETURNING",
		major: true,
	}
}

const storeGet = `
// Get returns the order with the given id and its items, or ErrNotFound.
func (s *Store) Get(ctx context.Context, id int64) (*Order, error) {
    o := &Order{ID: id}
    err := s.db.QueryRowContext(ctx,
        ‵SELECT customer_id, status, currency, created_at FROM orders WHERE id = $1‵, id,
    ).Scan(&o.CustomerID, &o.Status, &o.Currency, &o.CreatedAt)%s
    if err != nil {
        return nil, fmt.Errorf("get order %%d: %%w", id, err)
    }
    items, err := s.items(ctx, id)
    if err != nil {
        return nil, err
    }
    o.Items = items
    return o, nil
}`

const getNoRows = `
    if errors.Is(err, sql.ErrNoRows) {
        return nil, ErrNotFound
    }`

const storeItems = `
// items returns the line items of an order in insertion order.
func (s *Store) items(ctx context.Context, orderID int64) ([]LineItem, error) {
    rows, err := s.db.QueryContext(ctx,
        ‵SELECT sku, quantity, unit_amount FROM order_items WHERE order_id = $1 ORDER BY id‵, orderID)
    if err != nil {
        return nil, fmt.Errorf("list items of order %%d: %%w", orderID, err)
    }
    defer rows.Close()
    var items []LineItem
    for rows.Next() {
        var it LineItem
        if err := rows.Scan(&it.SKU, &it.Quantity, &it.UnitAmount); err != nil {
            return nil, %s
        }
        items = append(items, it)
    }
    return items, rows.Err()
}`

const testGet = `
func TestGetOrder(t *testing.T) {
    s := newStore(t)
    ctx := context.Background()
    o := newOrder(7, "SKU-1", "SKU-2")
    if err := s.Create(ctx, o); err != nil {
        t.Fatal(err)
    }
    got, err := s.Get(ctx, o.ID)
    if err != nil {
        t.Fatalf("Get: %v", err)
    }
    if len(got.Items) != 2 || got.Items[1].SKU != "SKU-2" {
        t.Errorf("items = %+v, want SKU-1, SKU-2", got.Items)
    }
}

func TestGetOrder_NotFound(t *testing.T) {
    s := newStore(t)
    _, err := s.Get(context.Background(), 42)
    if !errors.Is(err, orders.ErrNotFound) {
        t.Fatalf("err = %v, want orders.ErrNotFound", err)
    }
}`

func getStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestGetOrder' -v"
	return &step{
		intro: "Store.Get reads the order row and then its items; a missing order has to come back as ErrNotFound.",
		reads: []string{pStore},
		code: []change{
			{pStore, "head", "", storeHead("context", "database/sql", "errors", "fmt")},
			{pStore, "get", "create", fmt.Sprintf(storeGet, "")},
			{pStore, "items", "get", fmt.Sprintf(storeItems, "err")},
		},
		tests: []change{{pStoreTest, "head", "", storeTestHead(true)}, {pStoreTest, "get", "create", testGet}},
		test:  cmd,
		bugs: []*bug{{
			cmd: cmd,
			out: failAt(pStoreTest, "TestGetOrder_NotFound", `t.Fatalf("err = %v, want orders.ErrNotFound"`,
				"err = get order 42: sql: no rows in result set, want orders.ErrNotFound"),
			diag:  "TestGetOrder passes; TestGetOrder_NotFound gets the raw sql.ErrNoRows wrapped in \"get order 42\". The fix: map sql.ErrNoRows to ErrNotFound in Get before wrapping.",
			fix:   []change{{pStore, "get", "", fmt.Sprintf(storeGet, getNoRows)}},
			fixed: "Get maps sql.ErrNoRows to ErrNotFound",
		}},
		fact:  "Store.Get loads the order and its items and maps sql.ErrNoRows to ErrNotFound",
		major: true,
	}
}

const storeList = `
// ListByCustomer returns a customer's orders, newest first, without their items.
func (s *Store) ListByCustomer(ctx context.Context, customerID int64, limit int) ([]Order, error) {%s
    rows, err := s.db.QueryContext(ctx,
        ‵SELECT id, status, currency, created_at FROM orders
        WHERE customer_id = $1 ORDER BY %s LIMIT $2‵, customerID, limit)
    if err != nil {
        return nil, fmt.Errorf("list orders of customer %%d: %%w", customerID, err)
    }
    defer rows.Close()
    var list []Order
    for rows.Next() {
        o := Order{CustomerID: customerID}
        if err := rows.Scan(&o.ID, &o.Status, &o.Currency, &o.CreatedAt); err != nil {
            return nil, err
        }
        list = append(list, o)
    }
    return list, rows.Err()
}`

const listDefault = `
    if limit <= 0 {
        limit = DefaultLimit
    }`

const testList = `
func TestListByCustomer(t *testing.T) {
    s := newStore(t)
    ctx := context.Background()
    for _, c := range []int64{7, 8, 7, 7} {
        if err := s.Create(ctx, newOrder(c, "SKU-1")); err != nil {
            t.Fatal(err)
        }
    }
    list, err := s.ListByCustomer(ctx, 7, 10)
    if err != nil {
        t.Fatal(err)
    }
    if len(list) != 3 {
        t.Fatalf("got %d orders, want 3", len(list))
    }
    if list[0].ID != 4 {
        t.Errorf("orders[0].ID = %d, want 4", list[0].ID)
    }
}`

func listStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestListByCustomer' -v"
	return &step{
		intro: "ListByCustomer returns the orders of one customer, newest first, without items.",
		greps: [][2]string{{"ListByCustomer", "internal"}},
		code:  []change{{pStore, "list", "items", fmt.Sprintf(storeList, "", "id")}},
		tests: []change{{pStoreTest, "list", "get", testList}},
		test:  cmd,
		bugs: []*bug{{
			cmd:   cmd,
			out:   failAt(pStoreTest, "TestListByCustomer", `t.Errorf("orders[0].ID = %d, want 4"`, "orders[0].ID = 1, want 4"),
			diag:  "The list comes back oldest first: the query orders by id ascending. It has to be created_at DESC with id DESC as the tie-breaker.",
			fix:   []change{{pStore, "list", "", fmt.Sprintf(storeList, "", "created_at DESC, id DESC")}},
			fixed: "ListByCustomer orders by created_at DESC, id DESC",
		}},
		fact:  "Store.ListByCustomer returns a customer's orders newest first (created_at DESC, id DESC)",
		major: true,
	}
}

const orderValidate = `
// Validate checks an order before it is stored.
func (o *Order) Validate() error {
    if o.CustomerID <= 0 {
        return fmt.Errorf("%%w: customer_id is required", ErrInvalid)
    }
    if len(o.Currency) != 3 {
        return fmt.Errorf("%%w: currency %%q is not an ISO 4217 code", ErrInvalid, o.Currency)
    }
    if len(o.Items) == 0 {
        return fmt.Errorf("%%w: an order needs at least one item", ErrInvalid)
    }
    for i, item := range o.Items {
        if item.Quantity <= 0 {
            return fmt.Errorf("%%w: item %%d (%s): quantity must be positive", ErrInvalid, i, item.SKU)
        }%s
    }
    return nil
}`

const orderTestHead = `
package orders

import (
    "errors"
    "testing"
)`

const testValidate = `
func TestValidate(t *testing.T) {
    valid := Order{CustomerID: 7, Currency: "EUR", Items: []LineItem{{SKU: "SKU-1", Quantity: 1, UnitAmount: 100}}}
    tests := []struct {
        name string
        edit func(o *Order)
        ok   bool
    }{
        {"valid", func(*Order) {}, true},
        {"no customer", func(o *Order) { o.CustomerID = 0 }, false},
        {"bad currency", func(o *Order) { o.Currency = "euro" }, false},
        {"no items", func(o *Order) { o.Items = nil }, false},
        {"zero quantity", func(o *Order) { o.Items[0].Quantity = 0 }, false},%s
    }
    for _, tt := range tests {
        t.Run(tt.name, func(t *testing.T) {
            o := valid
            o.Items = append([]LineItem(nil), valid.Items...)
            tt.edit(&o)
            err := o.Validate()
            if (err == nil) != tt.ok {
                t.Fatalf("Validate() = %%v, want ok=%%v", err, tt.ok)
            }
            if err != nil && !errors.Is(err, ErrInvalid) {
                t.Errorf("error %%v does not wrap ErrInvalid", err)
            }
        })
    }
}`

func validateStep() *step {
	return &step{
		intro: "Validation belongs on the Order itself so that the handlers and any future importer share it.",
		code: []change{
			{pOrder, "head", "", fmt.Sprintf(orderHead, "\n    \"fmt\"")},
			{pOrder, "validate", "errors", fmt.Sprintf(orderValidate, "%d", "")},
		},
		checks: []string{"go vet ./..."},
		tests:  []change{{pOrderTest, "head", "", orderTestHead}, {pOrderTest, "validate", "head", fmt.Sprintf(testValidate, "")}},
		test:   "go test ./internal/orders/ -run 'TestValidate' -v",
		bugs: []*bug{{
			cmd: "go vet ./...",
			out: func(e *emitter) string {
				l, c := e.w.lineOf(pOrder, `fmt.Errorf("%w: item`)
				return buildFail("internal/orders", fmt.Sprintf("%s:%d:%d: fmt.Errorf format %%d has arg item.SKU of wrong type string", pOrder, l, c))
			},
			diag:  "go vet is right: the SKU is a string and the format says %d. Changing it to %s.",
			fix:   []change{{pOrder, "validate", "", fmt.Sprintf(orderValidate, "%s", "")}},
			fixed: "Validate formats the SKU with %s",
		}},
		fact: "Order.Validate checks customer, currency, items and quantities and wraps ErrInvalid; TestValidate is table-driven",
	}
}

const orderTotal = `
// Total returns the order's amount: the sum of quantity × unit amount.
func (o *Order) Total() int64 {
    var total int64
    for _, item := range o.Items {
        total %s int64(item.Quantity) * item.UnitAmount
    }
    return total
}`

const testTotal = `
func TestTotal(t *testing.T) {
    o := Order{Items: []LineItem{{SKU: "A", Quantity: 2, UnitAmount: 600}, {SKU: "B", Quantity: 1, UnitAmount: 1500}}}
    if got := o.Total(); got != 2700 {
        t.Errorf("Total() = %d, want 2700", got)
    }
}`

func totalStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestTotal' -v"
	return &step{
		intro: "Adding Order.Total for the response body and the metrics later on.",
		code:  []change{{pOrder, "total", "validate", fmt.Sprintf(orderTotal, "=")}},
		tests: []change{{pOrderTest, "total", "validate", testTotal}},
		test:  cmd,
		bugs: []*bug{{
			cmd:   cmd,
			out:   failAt(pOrderTest, "TestTotal", `t.Errorf("Total() = %d, want 2700"`, "Total() = 1500, want 2700"),
			diag:  "Total() = 1500: the loop assigns instead of adding, so only the last item counts. A typo: = instead of +=.",
			fix:   []change{{pOrder, "total", "", fmt.Sprintf(orderTotal, "+=")}},
			fixed: "Total sums with += instead of assigning",
		}},
		fact: "Order.Total sums quantity × unit amount",
	}
}
