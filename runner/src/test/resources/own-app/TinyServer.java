import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A service that is none of the lab's apps, for the own-app tests: `java -jar tiny.jar PORT [MODE]`. GET /primes?limit=N
 * answers {"limit":N,"count":C}, the primes below N; GET /ready answers 200. MODE makes it misbehave as a user's app can:
 * exit (dies at start, with a reason), never-ready (/ready answers 503), no-port (never listens), wrong-body (one prime short).
 * GET /guarded?key=K answers 200 only with K equal to the argument --key=K and the header Authorization: Bearer T, T the
 * environment's TINY_TOKEN (401 otherwise), and prints every such request's query and header to stdout, as an access
 * log that echoes what it is sent would.
 */
public class TinyServer {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String mode = args.length > 1 && !args[1].startsWith("--") ? args[1] : "ok";
        String key = java.util.Arrays.stream(args).filter(a -> a.startsWith("--key=")).map(a -> a.substring(6)).findFirst().orElse(null);
        String token = System.getenv("TINY_TOKEN");
        if (mode.equals("exit")) {
            System.out.println("boom: cannot read orders.conf");
            System.exit(3);
        }
        if (mode.equals("no-port")) {
            Thread.sleep(600_000);
            return;
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 512);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/ready", ex -> {
            ex.sendResponseHeaders(mode.equals("never-ready") ? 503 : 200, -1);
            ex.close();
        });
        server.createContext("/primes", ex -> {
            String q = ex.getRequestURI().getQuery();
            int limit = Integer.parseInt(q.substring(q.indexOf('=') + 1));
            int count = mode.equals("wrong-body") ? -1 : 0;
            for (int n = 2; n < limit; n++) {
                boolean prime = true;
                for (int d = 2; (long) d * d <= n; d++) if (n % d == 0) { prime = false; break; }
                if (prime) count++;
            }
            byte[] body = ("{\"limit\":" + limit + ",\"count\":" + count + "}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/guarded", ex -> {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            String query = ex.getRequestURI().getQuery();
            System.out.println("GET /guarded?" + query + " Authorization: " + auth);
            boolean ok = key != null && token != null && ("key=" + key).equals(query) && ("Bearer " + token).equals(auth);
            byte[] body = (ok ? "{\"guarded\":true}" : "{\"guarded\":false}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(ok ? 200 : 401, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }
}
