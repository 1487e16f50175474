import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A service that is none of the lab's apps, for the own-app tests: `java -jar tiny.jar PORT [MODE]`. GET /primes?limit=N
 * answers {"limit":N,"count":C}, the primes below N; GET /ready answers 200. MODE makes it misbehave as a user's app can:
 * exit (dies at start, with a reason), never-ready (/ready answers 503), no-port (never listens), wrong-body (one prime short).
 */
public class TinyServer {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String mode = args.length > 1 ? args[1] : "ok";
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
        server.start();
    }
}
