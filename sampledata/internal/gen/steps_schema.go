package gen

import "fmt"

// The orders schema and the orders package types, as the migration run
// writes them.

const (
	pSchema    = "db/schema/orders.sql"
	pOrder     = "internal/orders/order.go"
	pOrderTest = "internal/orders/order_test.go"
	pStore     = "internal/orders/store.go"
	pStoreTest = "internal/orders/orders_test.go"
	pInteg     = "internal/orders/integration_test.go"
	pServer    = "internal/server/store.go"
	pRoutes    = "internal/api/routes.go"
)

const schemaTypeSQL = `
-- Orders placed by customers. Amounts are in the smallest currency unit.
CREATE TYPE order_status AS ENUM ('pending', 'paid', 'shipped', 'cancelled');`

const schemaOrdersSQL = `
CREATE TABLE orders (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id bigint       NOT NULL REFERENCES customers (id),
    status      order_status NOT NULL DEFAULT 'pending',
    currency    char(3)      NOT NULL,
    created_at  timestamptz  NOT NULL DEFAULT now()%s
);`

const schemaItemsSQL = `
CREATE TABLE order_items (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id    bigint  NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    sku         text    NOT NULL,
    quantity    integer NOT NULL CHECK (quantity > 0),
    unit_amount bigint  NOT NULL CHECK (unit_amount >= 0)
);`

const schemaIndexSQL = `
-- ListByCustomer and the paginated list read orders of one customer, newest first.
CREATE INDEX orders_by_customer ON orders (customer_id, created_at DESC, id DESC);`

func schemaOrders(updatedAt bool) string {
	if updatedAt {
		return fmt.Sprintf(schemaOrdersSQL, ",\n    updated_at  timestamptz  NOT NULL DEFAULT now()")
	}
	return fmt.Sprintf(schemaOrdersSQL, "")
}

const migrateDevOut = `atlas schema apply --env dev --auto-approve
-- Planned Changes:
-- Create enum type "order_status"
CREATE TYPE "public"."order_status" AS ENUM ('pending', 'paid', 'shipped', 'cancelled');
-- Create "orders" table
CREATE TABLE "public"."orders" (
  "id" bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  "customer_id" bigint NOT NULL,
  "status" "public"."order_status" NOT NULL DEFAULT 'pending',
  "currency" character(3) NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("id"),
  CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "public"."customers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION
);
-- Create "order_items" table
CREATE TABLE "public"."order_items" (
  "id" bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  "order_id" bigint NOT NULL,
  "sku" text NOT NULL,
  "quantity" integer NOT NULL,
  "unit_amount" bigint NOT NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "order_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "public"."orders" ("id") ON UPDATE NO ACTION ON DELETE CASCADE,
  CONSTRAINT "order_items_quantity_check" CHECK (quantity > 0),
  CONSTRAINT "order_items_unit_amount_check" CHECK (unit_amount >= 0)
);
`

func schemaStep() *step {
	bad := `
CREATE TABLE orders (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id bigint       NOT NULL REFERENCES customer (id),
    status      order_status NOT NULL DEFAULT 'pending',
    currency    char(3)      NOT NULL,
    created_at  timestamptz  NOT NULL DEFAULT now()
);`
	return &step{
		intro: "Starting with the schema. The service keeps its Postgres schema declaratively in db/schema/*.sql and atlas applies the difference, so the orders table goes in a new file there.",
		reads: []string{"db/schema/customers.sql", "atlas.hcl"},
		code: []change{
			{pSchema, "type", "", schemaTypeSQL},
			{pSchema, "orders", "type", bad},
			{pSchema, "items", "orders", schemaItemsSQL},
		},
		checks: []string{"make schema-lint ENV=dev", "make migrate ENV=dev"},
		bugs: []*bug{{
			cmd: "make migrate ENV=dev",
			out: func(*emitter) string {
				return `Error: create "orders" table: ERROR: relation "customer" does not exist (SQLSTATE 42P01)` + "\nmake: *** [Makefile:20: migrate] Error 1\n"
			},
			diag:  "The apply failed: the foreign key names a customer table, and the table is called customers. Fixing the reference.",
			fix:   []change{{pSchema, "orders", "", schemaOrders(false)}},
			fixed: "the orders.customer_id foreign key referenced a non-existent customer table; it now references customers (id)",
		}},
		outputs: map[string]func(*emitter) string{
			"make schema-lint ENV=dev": lintOK,
			"make migrate ENV=dev":     func(*emitter) string { return migrateDevOut },
		},
		outro: "The orders and order_items tables and the order_status enum now exist on the dev database.",
		fact:  "db/schema/orders.sql defines the order_status enum and the orders and order_items tables; the dev database has them",
		major: true,
	}
}

func lintOK(*emitter) string { return "atlas schema lint --env dev\nNo issues found.\n" }

// schemaDiffOut is what `make schema-diff ENV=staging` prints: the schema diff
// the user reviews.
const schemaDiffOut = `atlas schema diff --env staging
-- Add new schema named "public"
-- Create enum type "order_status"
CREATE TYPE "public"."order_status" AS ENUM ('pending', 'paid', 'shipped', 'cancelled');
-- Create "orders" table
CREATE TABLE "public"."orders" ("id" bigint NOT NULL GENERATED ALWAYS AS IDENTITY, "customer_id" bigint NOT NULL, "status" "public"."order_status" NOT NULL DEFAULT 'pending', "currency" character(3) NOT NULL, "created_at" timestamptz NOT NULL DEFAULT now(), PRIMARY KEY ("id"), CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "public"."customers" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create "order_items" table
CREATE TABLE "public"."order_items" ("id" bigint NOT NULL GENERATED ALWAYS AS IDENTITY, "order_id" bigint NOT NULL, "sku" text NOT NULL, "quantity" integer NOT NULL, "unit_amount" bigint NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "order_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "public"."orders" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "order_items_quantity_check" CHECK (quantity > 0), CONSTRAINT "order_items_unit_amount_check" CHECK (unit_amount >= 0));
`

const orderHead = `
// Package orders stores customer orders and their line items.
package orders

import (
    "errors"%s
    "time"
)`

const orderStatus = `
// Status is the lifecycle state of an order. The values mirror the
// order_status enum of db/schema/orders.sql.
type Status string

const (
    StatusPending   Status = "pending"
    StatusPaid      Status = "paid"
    StatusShipped   Status = "shipped"
    StatusCancelled Status = "cancelled"
)`

const orderTypes = `
// Order is one customer order. Amounts are in the smallest currency unit.
type Order struct {
    ID         int64      ‵json:"id"‵
    CustomerID int64      ‵json:"customer_id"‵
    Status     Status     ‵json:"status"‵
    Currency   string     ‵json:"currency"‵
    Items      []LineItem ‵json:"items,omitempty"‵
    CreatedAt  time.Time  ‵json:"created_at"‵
}

// LineItem is one SKU on an order.
type LineItem struct {
    SKU        string ‵json:"sku"‵
    Quantity   int    ‵json:"quantity"‵
    UnitAmount int64  ‵json:"unit_amount"‵
}`

const orderErrors = `
var (
    // ErrNotFound is returned when no order has the requested id.
    ErrNotFound = errors.New("orders: not found")
    // ErrInvalid wraps every validation failure.
    ErrInvalid = errors.New("orders: invalid order")
)`

func typesStep() *step {
	return &step{
		intro: "The schema is in place. The Go side follows the customers package: a types file, then a Store over database/sql.",
		reads: []string{"internal/customers/store.go"},
		code: []change{
			{pOrder, "head", "", fmt.Sprintf(orderHead, "")},
			{pOrder, "status", "", orderStatus},
			{pOrder, "types", "", orderTypes},
			{pOrder, "errors", "", orderErrors},
		},
		outro: "internal/orders/order.go has Order, LineItem, the Status values and the package errors. It builds.",
		fact:  "internal/orders/order.go defines Order, LineItem, Status (mirroring the enum), ErrNotFound and ErrInvalid",
		major: true,
	}
}
