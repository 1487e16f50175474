// Command own-app is a service the lab did not build and that does not run on a JVM: the lab starts it as a
// plain command. It serves the built-in apps' CPU work (GET /primes?limit=N, the same trial division and the same
// JSON as their /cpu/direct) and GET /ready.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
)

// The range of the limit parameter, as in the lab's contract (stackbench.contract.Parameter.LIMIT).
const (
	minLimit = 0
	maxLimit = 10_000_000
)

// primesAnswer is the built-in apps' PrimesAnswer: {"limit":N,"primes":count}.
type primesAnswer struct {
	Limit  int64 `json:"limit"`
	Primes int   `json:"primes"`
}

// errorBody is the built-in apps' 400 body (stackbench.contract.ErrorBody), field for field.
type errorBody struct {
	Error     string  `json:"error"`
	Parameter string  `json:"parameter"`
	Value     *string `json:"value"`
	Allowed   string  `json:"allowed"`
	Message   string  `json:"message"`
}

// countPrimes counts the primes up to limit by trial division with the divisors 2..sqrt(i), the work of
// stackbench.workloads.Primes.upTo: the same loop, so the same CPU per request, not a faster sieve.
func countPrimes(limit int64) int {
	count := 0
	for i := int64(2); i <= limit; i++ {
		if isPrime(i) {
			count++
		}
	}
	return count
}

func isPrime(n int64) bool {
	if n < 2 {
		return false
	}
	root := int64(math.Sqrt(float64(n)))
	for d := int64(2); d <= root; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

// parseLimit reads the query's limit as the contract does: a missing value is null in the error body, an
// empty one is "" (both "is required").
func parseLimit(r *http.Request) (int64, *errorBody) {
	values, present := r.URL.Query()["limit"]
	var raw *string
	if present {
		raw = &values[0]
	}
	bad := func(reason string) *errorBody {
		allowed := fmt.Sprintf("%d..%d", minLimit, maxLimit)
		shown := ""
		if raw != nil {
			shown = fmt.Sprintf("= '%s' ", *raw)
		}
		return &errorBody{"bad_parameter", "limit", raw, allowed,
			fmt.Sprintf("parameter 'limit' %s%s; allowed: %s", shown, reason, allowed)}
	}
	if raw == nil || *raw == "" {
		return 0, bad("is required")
	}
	limit, err := strconv.ParseInt(*raw, 10, 64)
	if err != nil {
		return 0, bad("is not a whole number")
	}
	if limit < minLimit || limit > maxLimit {
		return 0, bad("is out of range")
	}
	return limit, nil
}

// writeJSON writes body without the trailing newline of json.Encoder: the same bytes as the JVM apps' answers.
func writeJSON(w http.ResponseWriter, status int, body any) {
	bytes, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(bytes)
}

func handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /primes", func(w http.ResponseWriter, r *http.Request) {
		limit, bad := parseLimit(r)
		if bad != nil {
			writeJSON(w, http.StatusBadRequest, bad)
			return
		}
		writeJSON(w, http.StatusOK, primesAnswer{Limit: limit, Primes: countPrimes(limit)})
	})
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "UP"})
	})
	return mux
}

func main() {
	port := flag.Int("port", 8080, "TCP port to listen on")
	address := flag.String("address", "127.0.0.1", "address to bind")
	flag.Parse()
	log.SetOutput(os.Stdout)

	// listen before saying so, so that the log line means the port is taken
	listener, err := net.Listen("tcp", net.JoinHostPort(*address, strconv.Itoa(*port)))
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	server := &http.Server{Handler: handler()}

	// the lab stops a service with SIGTERM: finish the requests in flight and exit 0
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = server.Shutdown(context.Background())
	}()

	log.Printf("own-app (Go) listening on http://%s", listener.Addr())
	if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("serve: %v", err)
	}
}
