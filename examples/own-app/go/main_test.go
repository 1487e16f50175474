package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func get(t *testing.T, server *httptest.Server, path string) (int, map[string]any) {
	t.Helper()
	response, err := http.Get(server.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(response.Body).Decode(&body); err != nil {
		t.Fatalf("GET %s: not JSON: %v", path, err)
	}
	return response.StatusCode, body
}

// The counts the built-in apps answer (workloads' PrimesTest and the contract IT's 10000 -> 1229).
func TestPrimesAnswerTheBuiltInAppsCounts(t *testing.T) {
	server := httptest.NewServer(handler())
	defer server.Close()
	for limit, count := range map[string]float64{"0": 0, "2": 1, "1000": 168, "10000": 1229, "100000": 9592} {
		status, body := get(t, server, "/primes?limit="+limit)
		if status != 200 || body["primes"] != count || len(body) != 2 {
			t.Errorf("limit %s: %d %v, want 200 {limit:%s primes:%v}", limit, status, body, limit, count)
		}
	}
}

func TestABadLimitIsA400NamingIt(t *testing.T) {
	server := httptest.NewServer(handler())
	defer server.Close()
	cases := map[string]string{
		"/primes":                "parameter 'limit' is required; allowed: 0..10000000",
		"/primes?limit=":         "parameter 'limit' = '' is required; allowed: 0..10000000",
		"/primes?limit=ten":      "parameter 'limit' = 'ten' is not a whole number; allowed: 0..10000000",
		"/primes?limit=-1":       "parameter 'limit' = '-1' is out of range; allowed: 0..10000000",
		"/primes?limit=10000001": "parameter 'limit' = '10000001' is out of range; allowed: 0..10000000",
	}
	for path, message := range cases {
		status, body := get(t, server, path)
		if status != 400 || body["error"] != "bad_parameter" || body["parameter"] != "limit" || body["message"] != message {
			t.Errorf("%s: %d %v, want 400 with %q", path, status, body, message)
		}
	}
	if _, body := get(t, server, "/primes"); body["value"] != nil {
		t.Errorf("a missing limit's value: %v, want null", body["value"])
	}
}

func TestReady(t *testing.T) {
	server := httptest.NewServer(handler())
	defer server.Close()
	if status, body := get(t, server, "/ready"); status != 200 || body["status"] != "UP" {
		t.Errorf("/ready: %d %v", status, body)
	}
}

func TestTrialDivisionAgreesOnEdges(t *testing.T) {
	for n, prime := range map[int64]bool{0: false, 1: false, 2: true, 3: true, 4: false, 9: false, 25: false, 9973: true, 9999991: true} {
		if isPrime(n) != prime {
			t.Errorf("isPrime(%d) = %v", n, !prime)
		}
	}
}
