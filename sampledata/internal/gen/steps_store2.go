package gen

import (
	"fmt"
	"strings"
)

// replaceOnce replaces the one occurrence of old in s.
func replaceOnce(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic("replaceOnce: " + old + " not found")
	}
	return strings.Replace(s, old, new, 1)
}

// addLineAfter inserts line after the first line of s that reads after (s
// must have one).
func addLineAfter(s, after, line string) string {
	return replaceOnce(s, after+"\n", after+"\n"+line+"\n")
}

// More of the orders store: status updates, the integration suite, cancel,
// the customer foreign key, the index and cursor pagination.

const storeStatus = `
// UpdateStatus moves an order to status, or returns ErrNotFound.
func (s *Store) UpdateStatus(ctx context.Context, id int64, status Status) error {
    res, err := s.db.ExecContext(ctx,
        ‵UPDATE orders SET status = $2, updated_at = now() WHERE id = $1‵, id, status)
    if err != nil {
        return fmt.Errorf("update order %d: %w", id, err)
    }
    n, err := res.RowsAffected()
    if err != nil {
        return err
    }
    if n == 0 {
        return ErrNotFound
    }
    return nil
}`

const testUpdate = `
func TestUpdateStatus(t *testing.T) {
    s := newStore(t)
    ctx := context.Background()
    o := newOrder(7, "SKU-1")
    if err := s.Create(ctx, o); err != nil {
        t.Fatal(err)
    }
    if err := s.UpdateStatus(ctx, o.ID, orders.StatusPaid); err != nil {
        t.Fatalf("UpdateStatus: %v", err)
    }
    if err := s.UpdateStatus(ctx, 99, orders.StatusPaid); !errors.Is(err, orders.ErrNotFound) {
        t.Errorf("UpdateStatus(99) = %v, want orders.ErrNotFound", err)
    }
}`

func updateStatusStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestUpdateStatus' -v"
	return &step{
		intro: "UpdateStatus for the payment and shipping flows: a single UPDATE that also stamps updated_at.",
		code:  []change{{pStore, "status", "list", storeStatus}},
		tests: []change{{pStoreTest, "update", "list", testUpdate}},
		test:  cmd,
		bugs: []*bug{{
			cmd: cmd,
			out: failAt(pStoreTest, "TestUpdateStatus", `t.Fatalf("UpdateStatus: %v", err)`,
				`UpdateStatus: update order 1: ERROR: column "updated_at" of relation "orders" does not exist (SQLSTATE 42703)`),
			diag:  "The orders table has no updated_at column yet. Adding it to db/schema/orders.sql with a now() default; pgtest applies the schema files, so the test picks it up.",
			fix:   []change{{pSchema, "orders", "", schemaOrders(true)}},
			fixed: "added the updated_at column to the orders table in db/schema/orders.sql",
		}},
		fact:  "Store.UpdateStatus sets status and updated_at and returns ErrNotFound for an unknown id; the orders table has an updated_at column",
		major: true,
	}
}

const integHead = `
package orders_test

import (
    "context"
    "sync"
    "testing"
)`

const integConcurrent = `
// TestIntegration_ConcurrentCreate creates orders from many goroutines and
// checks that every one of them is listed.
func TestIntegration_ConcurrentCreate(t *testing.T) {
    if testing.Short() {
        t.Skip("needs Docker")
    }
    s := newStore(t)
    ctx := context.Background()
    var wg sync.WaitGroup
    for i := 0; i < 20; i++ {
        wg.Add(1)
        go func() {
            defer wg.Done()
            if err := s.Create(ctx, newOrder(7, "SKU-1", "SKU-2")); err != nil {
                t.Error(err)
            }
        }()
    }
    wg.Wait()
    list, err := s.ListByCustomer(ctx, 7, 50)
    if err != nil {
        t.Fatal(err)
    }
    if len(list) != 20 {
        t.Errorf("got %d orders, want 20", len(list))
    }
}`

func integrationStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestIntegration_ConcurrentCreate' -v"
	return &step{
		intro: "An integration test that hammers Create from 20 goroutines, to see the transaction handling under contention.",
		reads: []string{"internal/platform/pgtest/pgtest.go", ".github/workflows/ci.yml"},
		tests: []change{{pInteg, "head", "", integHead}, {pInteg, "concurrent", "head", integConcurrent}},
		test:  cmd,
		fact:  "internal/orders/integration_test.go has TestIntegration_ConcurrentCreate (20 concurrent creates); CI runs the Integration tests with -timeout 30m",
		major: true,
	}
}

const integDefault = `
// TestIntegration_ListDefaultLimit checks that a zero limit means the
// default page size, not an empty page.
func TestIntegration_ListDefaultLimit(t *testing.T) {
    s := newStore(t)
    ctx := context.Background()
    for i := 0; i < 3; i++ {
        if err := s.Create(ctx, newOrder(8, "SKU-1")); err != nil {
            t.Fatal(err)
        }
    }
    list, err := s.ListByCustomer(ctx, 8, 0)
    if err != nil {
        t.Fatal(err)
    }
    if len(list) != 3 {
        t.Errorf("got %d orders, want 3", len(list))
    }
}`

const storeLimits = `
// Page sizes of the list calls.
const (
    DefaultLimit = 50
    MaxLimit     = 100
)`

func defaultLimitStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestIntegration_ListDefaultLimit' -v"
	return &step{
		intro: "The list handler passes a zero limit when the query has none. Covering that case in the store first.",
		tests: []change{{pInteg, "default", "concurrent", integDefault}},
		test:  cmd,
		bugs: []*bug{{
			cmd:  cmd,
			out:  failAt(pInteg, "TestIntegration_ListDefaultLimit", `t.Errorf("got %d orders, want 3"`, "got 0 orders, want 3"),
			diag: "LIMIT 0 returns no rows, so a zero limit gives an empty list. ListByCustomer gets a default of 50 and a MaxLimit constant for the handlers.",
			fix: []change{
				{pStore, "limits", "store", storeLimits},
				{pStore, "list", "", fmt.Sprintf(storeList, listDefault, "created_at DESC, id DESC")},
			},
			fixed:   "ListByCustomer treats a zero limit as DefaultLimit (50)",
			confirm: true,
		}},
		fact:  "ListByCustomer treats limit <= 0 as DefaultLimit (50); MaxLimit is 100",
		major: true,
	}
}

const orderErrorsConflict = `
var (
    // ErrNotFound is returned when no order has the requested id.
    ErrNotFound = errors.New("orders: not found")
    // ErrInvalid wraps every validation failure.
    ErrInvalid = errors.New("orders: invalid order")
    // ErrConflict is returned when an order cannot move to the requested
    // status: only an order that has not been paid can be cancelled.
    ErrConflict = errors.New("orders: conflicting status")
)`

const storeCancel = `
// Cancel cancels an unpaid order and returns it. Orders that are paid,
// shipped or already cancelled return ErrConflict.
func (s *Store) Cancel(ctx context.Context, id int64) (*Order, error) {
    res, err := s.db.ExecContext(ctx,
        ‵UPDATE orders SET status = 'cancelled', updated_at = now() WHERE id = $1 AND status = 'pending'‵, id)
    if err != nil {
        return nil, fmt.Errorf("cancel order %%d: %%w", id, err)
    }
    n, err := res.RowsAffected()
    if err != nil {
        return nil, err
    }
    o, err := s.Get(ctx, id)
    if err != nil {
        return nil, err
    }
    if %s {
        return nil, ErrConflict
    }
    return o, nil
}`

const testCancel = `
func TestCancel(t *testing.T) {
    s := newStore(t)
    ctx := context.Background()
    o := newOrder(7, "SKU-1")
    if err := s.Create(ctx, o); err != nil {
        t.Fatal(err)
    }
    got, err := s.Cancel(ctx, o.ID)
    if err != nil || got.Status != orders.StatusCancelled {
        t.Fatalf("Cancel = %v, %v; want a cancelled order", got, err)
    }
    if _, err := s.Cancel(ctx, o.ID); !errors.Is(err, orders.ErrConflict) {
        t.Errorf("second Cancel = %v, want orders.ErrConflict", err)
    }
    if _, err := s.Cancel(ctx, 99); !errors.Is(err, orders.ErrNotFound) {
        t.Errorf("Cancel(99) = %v, want orders.ErrNotFound", err)
    }
}`

func cancelStoreStep() *step {
	cmd := "go test ./internal/orders/ -run 'TestCancel' -v"
	return &step{
		intro: "Cancellation in the store: a conditional UPDATE, then a Get to tell a missing order from one in the wrong state.",
		reads: []string{pOrder},
		code: []change{
			{pOrder, "errors", "", orderErrorsConflict},
			{pStore, "cancel", "status", fmt.Sprintf(storeCancel, "n == 0 && o.Status != StatusCancelled")},
		},
		tests: []change{{pStoreTest, "cancel", "update", testCancel}},
		test:  cmd,
		bugs: []*bug{{
			cmd:   cmd,
			out:   failAt(pStoreTest, "TestCancel", `t.Errorf("second Cancel = %v`, "second Cancel = <nil>, want orders.ErrConflict"),
			diag:  "Cancelling twice succeeds: the conflict check exempts orders that are already cancelled. Any UPDATE that touched no row is a conflict once Get has found the order.",
			fix:   []change{{pStore, "cancel", "", fmt.Sprintf(storeCancel, "n == 0")}},
			fixed: "Cancel returns ErrConflict whenever the conditional UPDATE touched no row",
		}},
		fact:  "Store.Cancel cancels only unpaid orders, returns ErrConflict otherwise and ErrNotFound for an unknown id",
		major: true,
	}
}

func indexStep() *step {
	return &step{
		intro:  "The customer listing filters on customer_id and sorts on created_at, id. Adding the composite index to db/schema/orders.sql.",
		reads:  []string{pSchema},
		code:   []change{{pSchema, "index", "items", schemaIndexSQL}},
		checks: []string{"make schema-lint ENV=dev", "go test ./internal/orders/..."},
		outputs: map[string]func(*emitter) string{
			"make schema-lint ENV=dev": lintOK,
		},
		outro: "The index is in the schema file and the schema lints clean; the store tests load it through pgtest.",
		fact:  "db/schema/orders.sql has the composite index on (customer_id, created_at DESC, id DESC)",
		major: true,
	}
}

const cursorGo = `
package orders

import (
    "encoding/base64"
    "encoding/binary"
    "fmt"
    "math"
    "time"
)

// Cursor marks a position in a customer's order list: the last order of the
// previous page.
type Cursor struct {
    CreatedAt time.Time
    ID        int64
}

// IsZero reports whether c is the start of the list.
func (c Cursor) IsZero() bool { return c.ID == 0 }

// start is the position before the newest order.
var start = Cursor{CreatedAt: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), ID: math.MaxInt64}

// Encode returns the cursor as an opaque URL-safe token.
func (c Cursor) Encode() string {
    b := make([]byte, 16)
    binary.BigEndian.PutUint64(b, uint64(c.CreatedAt.UnixMicro()))
    binary.BigEndian.PutUint64(b[8:], uint64(c.ID))
    return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor parses a token made by Encode.
func DecodeCursor(s string) (Cursor, error) {
    b, err := base64.RawURLEncoding.DecodeString(s)
    if err != nil || len(b) != 16 {
        return Cursor{}, fmt.Errorf("%w: malformed cursor", ErrInvalid)
    }
    return Cursor{
        CreatedAt: time.UnixMicro(int64(binary.BigEndian.Uint64(b))).UTC(),
        ID:        int64(binary.BigEndian.Uint64(b[8:])),
    }, nil
}`

const cursorTest = `
package orders

import (
    "errors"
    "testing"
    "time"
)

func TestCursorRoundTrip(t *testing.T) {
    c := Cursor{CreatedAt: time.Date(2026, 11, 3, 10, 4, 5, 123456000, time.UTC), ID: 42}
    got, err := DecodeCursor(c.Encode())
    if err != nil {
        t.Fatal(err)
    }
    if got != c {
        t.Errorf("DecodeCursor(Encode(%v)) = %v", c, got)
    }
}

func TestDecodeCursor_Malformed(t *testing.T) {
    for _, s := range []string{"", "abc", "!!!!", "AAAAAAAAAAAAAAAAAAAAAAAAAA"} {
        if _, err := DecodeCursor(s); !errors.Is(err, ErrInvalid) {
            t.Errorf("DecodeCursor(%q) = %v, want ErrInvalid", s, err)
        }
    }
}`

func cursorStep() *step {
	return &step{
		intro: "Keyset pagination works from a cursor: created_at and id of the last order of a page, encoded as an opaque token.",
		greps: [][2]string{{"DefaultLimit", "internal"}},
		code:  []change{{"internal/orders/cursor.go", "all", "", cursorGo}},
		tests: []change{{"internal/orders/cursor_test.go", "all", "", cursorTest}},
		test:  "go test ./internal/orders/ -run 'TestCursorRoundTrip|TestDecodeCursor_Malformed' -v",
		fact:  "internal/orders/cursor.go encodes (created_at, id) as an opaque base64url token; DecodeCursor rejects malformed tokens with ErrInvalid",
		major: true,
	}
}

const storePage = `
// Page is one page of a customer's orders, newest first.
type Page struct {
    Orders []Order
    // Cursor continues the list; it is empty on the last page.
    Cursor string
}

// ListPage returns up to limit orders of a customer that come after the
// cursor position (the zero Cursor starts from the newest order).
func (s *Store) ListPage(ctx context.Context, customerID int64, after Cursor, limit int) (Page, error) {
    if limit <= 0 {
        limit = DefaultLimit
    }
    if after.IsZero() {
        after = start
    }
    rows, err := s.db.QueryContext(ctx,
        ‵SELECT id, status, currency, created_at FROM orders
        WHERE customer_id = $1 AND %s
        ORDER BY created_at DESC, id DESC LIMIT $4‵, customerID, after.CreatedAt, after.ID, limit+1)
    if err != nil {
        return Page{}, fmt.Errorf("list orders of customer %%d: %%w", customerID, err)
    }
    defer rows.Close()
    var page Page
    for rows.Next() {
        o := Order{CustomerID: customerID}
        if err := rows.Scan(&o.ID, &o.Status, &o.Currency, &o.CreatedAt); err != nil {
            return Page{}, err
        }
        page.Orders = append(page.Orders, o)
    }
    if len(page.Orders) > limit {
        page.Orders = page.Orders[:limit]
        last := page.Orders[limit-1]
        page.Cursor = Cursor{CreatedAt: last.CreatedAt, ID: last.ID}.Encode()
    }
    return page, rows.Err()
}`

const (
	pageWhereBuggy = "created_at < $2 AND id <> $3"
	pageWhere      = "(created_at, id) < ($2, $3)"
)

const testPage = `
func TestListPage(t *testing.T) {
    s := newStore(t)
    ctx := context.Background()
    for i := 0; i < 5; i++ {
        if err := s.Create(ctx, newOrder(7, "SKU-1")); err != nil {
            t.Fatal(err)
        }
    }
    p1, err := s.ListPage(ctx, 7, orders.Cursor{}, 2)
    if err != nil || len(p1.Orders) != 2 || p1.Cursor == "" {
        t.Fatalf("page 1 = %+v, %v", p1, err)
    }
    after, _ := orders.DecodeCursor(p1.Cursor)
    p2, err := s.ListPage(ctx, 7, after, 2)
    if err != nil {
        t.Fatal(err)
    }
    if len(p2.Orders) != 2 || p2.Orders[0].ID != 3 {
        t.Errorf("page 2 = %+v, want orders 3 and 2", p2.Orders)
    }
}`

func listPageStep() *step {
	return &step{
		intro: "ListPage: fetch limit+1 rows after the cursor to know whether another page exists.",
		reads: []string{pStore},
		code:  []change{{pStore, "page", "list", fmt.Sprintf(storePage, pageWhereBuggy)}},
		tests: []change{{pStoreTest, "page", "cancel", testPage}},
		test:  "go test ./internal/orders/ -run 'TestListPage' -v",
		fact:  "Store.ListPage returns a page of a customer's orders and an opaque cursor for the following page",
		major: true,
	}
}

const testPageTies = `
// TestListPage_SameTimestamp pages through orders created in one statement:
// they share created_at, so only the id tells them apart.
func TestListPage_SameTimestamp(t *testing.T) {
    s, db := newStoreDB(t)
    ctx := context.Background()
    if _, err := db.ExecContext(ctx, ‵INSERT INTO orders (customer_id, currency)
        SELECT 7, 'EUR' FROM generate_series(1, 4)‵); err != nil {
        t.Fatal(err)
    }
    p1, err := s.ListPage(ctx, 7, orders.Cursor{}, 2)
    if err != nil {
        t.Fatal(err)
    }
    after, _ := orders.DecodeCursor(p1.Cursor)
    p2, err := s.ListPage(ctx, 7, after, 2)
    if err != nil {
        t.Fatal(err)
    }
    if len(p2.Orders) != 2 {
        t.Errorf("page 2: got %d orders, want 2", len(p2.Orders))
    }
}`

const storeTestHelperDB = `
// newStoreDB is newStore that also returns the database, for tests that
// insert rows directly.
func newStoreDB(t testing.TB) (*orders.Store, *sql.DB) {
    t.Helper()
    db := pgtest.New(t, "../../db/schema")` + seedCustomers + `
    return orders.NewStore(db), db
}`

// pageTiesStep finds the keyset bug; pause lets the story compact while the
// failure is open.
func pageTiesStep(e *emitter, pause func()) *step {
	cmd := "go test ./internal/orders/ -run 'TestListPage_SameTimestamp' -v"
	return &step{
		intro: "Orders created in the same statement share created_at. Adding a test for pages that split such a group.",
		tests: []change{
			e.patch(pStoreTest, "head", "\t\"context\"", "\t\"context\"\n\t\"database/sql\""),
			{pStoreTest, "helperdb", "head", storeTestHelperDB},
			{pStoreTest, "ties", "page", testPageTies},
		},
		test: cmd,
		bugs: []*bug{{
			cmd: cmd,
			out: failAt(pStoreTest, "TestListPage_SameTimestamp", `t.Errorf("page 2: got %d orders, want 2"`,
				"page 2: got 0 orders, want 2"),
			diag:  "Page 2 is empty: the WHERE clause compares created_at strictly, so every order that shares the cursor's timestamp is skipped. The comparison has to be on the (created_at, id) tuple.",
			pause: pause,
			fix:   []change{{pStore, "page", "", fmt.Sprintf(storePage, pageWhere)}},
			fixed: "ListPage compares the (created_at, id) tuple with the cursor, so orders sharing a timestamp are not skipped",
		}},
		fact:  "ListPage compares (created_at, id) < ($2, $3), so orders that share a timestamp page correctly",
		major: true,
	}
}
