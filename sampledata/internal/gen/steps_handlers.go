package gen

import "fmt"

// Handler steps. Each takes the handler file's state, renders the buggy and
// the fixed version of what it changes, and leaves the state fixed.

// apiFail is a failing subtest of the api package.
func (e *emitter) apiFail(test, sub, marker, msg string) string {
	l, _ := e.w.lineOf(pAPITest, marker)
	return e.testFail("internal/api", test,
		fmt.Sprintf("--- FAIL: %s/%s (0.0%ds)", test, sub, 1+e.rng.IntN(8)),
		fmt.Sprintf("    orders_test.go:%d: %s", l, msg))
}

func handlersStep(a *apiCode, pause func()) *step {
	buggy := *a
	a.created = true
	cmd := "go test ./internal/api/ -run 'TestCreateOrderHandler' -v"
	return &step{
		intro: "Handlers next. internal/api/customers.go is the pattern: a handler struct over the store, chi URL params, writeJSON and writeError.",
		reads: []string{"internal/api/customers.go", "internal/api/respond.go", pRoutes},
		code: []change{
			{pAPI, "head", "", buggy.head()},
			{pAPI, "handler", "head", apiHandler},
			{pAPI, "create", "handler", buggy.create()},
			{pRoutes, "routes", "", routesBlock("orders.NewHandler", 1)},
		},
		tests: []change{{pAPITest, "head", "", apiTestHead}, {pAPITest, "create", "head", apiTestCreate("")}},
		test:  cmd,
		bugs: []*bug{{
			cmd: "go build ./...",
			out: func(e *emitter) string {
				l, c := e.w.lineOf(pRoutes, "orders.NewHandler")
				return buildFail("internal/api", fmt.Sprintf("%s:%d:%d: undefined: orders.NewHandler", pRoutes, l, c+7))
			},
			diag:  "Routes calls orders.NewHandler, but the handler lives in package api as newOrdersHandler; package orders has no HTTP code.",
			pause: pause,
			fix:   []change{{pRoutes, "routes", "", routesBlock("newOrdersHandler", 1)}},
			fixed: "Routes builds the handler with newOrdersHandler (package api), not orders.NewHandler",
		}, {
			cmd: cmd,
			out: func(e *emitter) string {
				return e.apiFail("TestCreateOrderHandler", "created", "t.Fatalf(\"status = %d, want %d\"", "status = 200, want 201")
			},
			diag:    "The create handler answers 200; a created resource is 201. One-line change in writeJSON's status.",
			fix:     []change{{pAPI, "create", "", a.create()}},
			fixed:   "the create handler answers 201 Created",
			confirm: true,
		}},
		fact:  "internal/api/orders.go has ordersHandler with the create handler (decode, Validate, Store.Create, 201); TestCreateOrderHandler is table-driven",
		major: true,
	}
}

func getHandlerStep(a *apiCode) *step {
	buggy := *a
	a.notFound = true
	cmd := "go test ./internal/api/ -run 'TestGetOrderHandler' -v"
	return &step{
		intro: "The get handler: parse the id, load the order with its items.",
		code:  []change{{pAPI, "get", "create", buggy.get()}, {pRoutes, "routes", "", routesBlock("newOrdersHandler", 2)}},
		tests: []change{{pAPITest, "get", "create", apiTestGet}},
		test:  cmd,
		bugs: []*bug{{
			cmd: cmd,
			out: func(e *emitter) string {
				return e.apiFail("TestGetOrderHandler", "/v1/orders/99", `t.Errorf("GET %s: status`, "GET /v1/orders/99: status = 500, want 404")
			},
			diag:  "An unknown id gives 500: the handler treats ErrNotFound like any store error. Mapping it to 404 like the customers handler does.",
			fix:   []change{{pAPI, "head", "", a.head()}, {pAPI, "get", "", a.get()}},
			fixed: "the get handler maps orders.ErrNotFound to 404",
		}},
		fact:  "the get handler answers 200 with the order and its items, 404 for an unknown id, 400 for a bad id",
		major: true,
	}
}

func listHandlerStep(a *apiCode) *step {
	buggy := *a
	a.listWrap = true
	cmd := "go test ./internal/api/ -run 'TestListCustomerOrdersHandler' -v"
	return &step{
		intro: "The customer listing. The OpenAPI spec wraps lists in an object, so the body is {\"orders\": [...]}.",
		reads: []string{"internal/gen/ordersapi/api.gen.go"},
		code:  []change{{pAPI, "list", "get", buggy.list()}, {pRoutes, "routes", "", routesBlock("newOrdersHandler", 3)}},
		tests: []change{{pAPITest, "head", "", replaceOnce(apiTestHead, "    \"fmt\"", "    \"encoding/json\"\n    \"fmt\"")}, {pAPITest, "list", "get", apiTestList}},
		test:  cmd,
		bugs: []*bug{{
			cmd: cmd,
			out: failAt(pAPITest, "TestListCustomerOrdersHandler", `t.Fatalf("decode: %v", err)`,
				"decode: json: cannot unmarshal array into Go value of type struct { Orders []orders.Order \"json:\\\"orders\\\"\" }"),
			diag:  "The handler writes the bare slice; the spec and the test expect {\"orders\": [...]}. Wrapping it.",
			fix:   []change{{pAPI, "list", "", a.list()}},
			fixed: "the list handler wraps the result as {\"orders\": [...]}",
		}},
		fact:  "the customer listing answers {\"orders\": [...]} newest first, with an optional limit query parameter",
		major: true,
	}
}

func bodyLimitStep(a *apiCode) *step {
	a.limitBody = true
	extra := `
        {"unknown field", ‵{"customer_id": 7, "currency": "EUR", "coupon": "X", "items": [{"sku": "SKU-1", "quantity": 1, "unit_amount": 100}]}‵, http.StatusBadRequest},
        {"oversized", ‵{"customer_id": 7, "currency": "‵ + strings.Repeat("x", 2<<20) + ‵"}‵, http.StatusBadRequest},`
	return &step{
		intro: "Hardening the create handler: cap the body at 1 MiB and reject unknown fields, so a typo in a field name is a 400 instead of a silently empty value.",
		code:  []change{{pAPI, "create", "", a.create()}},
		tests: []change{{pAPITest, "create", "", apiTestCreate(extra)}},
		test:  "go test ./internal/api/ -run 'TestCreateOrderHandler' -v",
		fact:  "the create handler caps bodies at 1 MiB (http.MaxBytesReader) and rejects unknown fields",
	}
}

func logStep(a *apiCode) *step {
	a.logCreate = true
	return &step{
		intro:  "Logging created orders with slog so staging has a trail: order id, customer id and total, no line items.",
		code:   []change{{pAPI, "head", "", a.head()}, {pAPI, "create", "", a.create()}},
		checks: []string{"go build ./...", "go vet ./..."},
		test:   "go test ./internal/api/...",
		fact:   "the create handler logs order_id, customer_id and total with slog.InfoContext",
	}
}

const apiTestCancel = `
func TestCancelOrderHandler(t *testing.T) {
    srv := newTestServer(t)
    post(t, srv.URL+"/v1/orders", orderBody)
    tests := []struct {
        name string
        path string
        want int
    }{
        {"cancel", "/v1/orders/1/cancel", http.StatusOK},
        {"again", "/v1/orders/1/cancel", http.StatusConflict},
        {"missing", "/v1/orders/99/cancel", http.StatusNotFound},
    }
    for _, tt := range tests {
        t.Run(tt.name, func(t *testing.T) {
            resp := post(t, srv.URL+tt.path, "")
            if resp.StatusCode != tt.want {
                t.Errorf("POST %s: status = %d, want %d", tt.path, resp.StatusCode, tt.want)
            }
        })
    }
}`

func cancelHandlerStep(a *apiCode) *step {
	a.cancel = true
	cmd := "go test ./internal/api/ -run 'TestCancelOrderHandler' -v"
	return &step{
		intro: "The cancel endpoint: POST on the order's cancel sub-resource, 409 when the order is past cancelling.",
		code:  []change{{pAPI, "cancel", "list", a.cancelH(false)}, {pRoutes, "routes", "", routesBlock("newOrdersHandler", 4)}},
		tests: []change{{pAPITest, "cancel", "list", apiTestCancel}},
		test:  cmd,
		bugs: []*bug{{
			cmd: cmd,
			out: func(e *emitter) string {
				return e.apiFail("TestCancelOrderHandler", "again", `t.Errorf("POST %s: status`, "POST /v1/orders/1/cancel: status = 500, want 409")
			},
			diag:  "The second cancel answers 500: ErrConflict falls through to the generic error branch. Adding the 409 mapping.",
			fix:   []change{{pAPI, "cancel", "", a.cancelH(true)}},
			fixed: "the cancel handler maps orders.ErrConflict to 409",
		}},
		fact:  "the cancel endpoint answers 200 with the cancelled order, 409 when it is past cancelling, 404 when unknown",
		major: true,
	}
}

const apiTestPages = `
func TestListCustomerOrdersHandler_Pages(t *testing.T) {
    srv := newTestServer(t)
    for i := 0; i < 5; i++ {
        post(t, srv.URL+"/v1/orders", orderBody)
    }
    var ids []int64
    url := srv.URL + "/v1/customers/7/orders?limit=2"
    for page := 0; page < 5 && url != ""; page++ {
        resp, err := http.Get(url)
        if err != nil {
            t.Fatal(err)
        }
        var body struct {
            Orders     []orders.Order ‵json:"orders"‵
            NextCursor string         ‵json:"next_cursor"‵
        }
        err = json.NewDecoder(resp.Body).Decode(&body)
        resp.Body.Close()
        if err != nil {
            t.Fatalf("page %d: decode: %v", page, err)
        }
        for _, o := range body.Orders {
            ids = append(ids, o.ID)
        }
        url = ""
        if body.NextCursor != "" {
            url = srv.URL + "/v1/customers/7/orders?limit=2&cursor=" + body.NextCursor
        }
    }
    if fmt.Sprint(ids) != "[5 4 3 2 1]" {
        t.Errorf("ids = %v, want [5 4 3 2 1]", ids)
    }
}`

func pageHandlerStep(a *apiCode) *step {
	a.cursor = true
	return &step{
		intro: "Switching the listing handler to ListPage: a cursor query parameter in, next_cursor out.",
		reads: []string{pAPI},
		code:  []change{{pAPI, "list", "", a.list()}},
		tests: []change{{pAPITest, "pages", "list", apiTestPages}},
		test:  "go test ./internal/api/ -run 'TestListCustomerOrdersHandler' -v",
		fact:  "the listing handler reads cursor and limit and answers {\"orders\": [...], \"next_cursor\": ...}",
		major: true,
	}
}

const apiTestLimit = `
func TestListCustomerOrdersHandler_Limit(t *testing.T) {
    srv := newTestServer(t)
    tests := []struct {
        query string
        want  int
    }{
        {"limit=0", http.StatusBadRequest},
        {"limit=abc", http.StatusBadRequest},
        {"limit=500", http.StatusOK},
        {"cursor=not-a-cursor", http.StatusBadRequest},
    }
    for _, tt := range tests {
        t.Run(tt.query, func(t *testing.T) {
            resp, err := http.Get(srv.URL + "/v1/customers/7/orders?" + tt.query)
            if err != nil {
                t.Fatal(err)
            }
            resp.Body.Close()
            if resp.StatusCode != tt.want {
                t.Errorf("?%s: status = %d, want %d", tt.query, resp.StatusCode, tt.want)
            }
        })
    }
}`

func limitCapStep(a *apiCode) *step {
	a.capLimit = true
	return &step{
		intro: "Review comment on the listing: cap limit at orders.MaxLimit instead of passing any number through to SQL.",
		code:  []change{{pAPI, "list", "", a.list()}},
		tests: []change{{pAPITest, "limit", "pages", apiTestLimit}},
		test:  "go test ./internal/api/ -run 'TestListCustomerOrdersHandler' -v",
		fact:  "the listing handler caps limit at orders.MaxLimit (100); TestListCustomerOrdersHandler_Limit covers bad limits and cursors",
	}
}

func timeoutStep(a *apiCode) *step {
	a.timeout = true
	return &step{
		intro: "Review comment: every store call of a request gets a 5 s timeout instead of the bare request context.",
		reads: []string{pAPI},
		code: []change{
			{pAPI, "head", "", a.head()},
			{pAPI, "create", "", a.create()},
			{pAPI, "get", "", a.get()},
			{pAPI, "list", "", a.list()},
			{pAPI, "cancel", "", a.cancelH(true)},
		},
		checks: []string{"go build ./...", "go vet ./..."},
		test:   "go test ./internal/api/...",
		fact:   "every order handler runs its store calls under context.WithTimeout(r.Context(), storeTimeout) with storeTimeout = 5s",
	}
}
