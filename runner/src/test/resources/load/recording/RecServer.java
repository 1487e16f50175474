import com.sun.net.httpserver.*;
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class RecServer {
    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]);
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        AtomicLong flaky = new AtomicLong();
        AtomicLong jitter = new AtomicLong();
        s.createContext("/noop", ex -> send(ex, 200, "ok"));
        s.createContext("/delay", ex -> { sleep(param(ex, "ms", 0)); send(ex, 200, "ok"); });
        s.createContext("/flaky", ex -> {
            long n = flaky.incrementAndGet();
            sleep(param(ex, "ms", 0));
            send(ex, n % 5 == 0 ? 404 : n % 7 == 0 ? 500 : 200, "flaky");
        });
        s.createContext("/jitter", ex -> {
            long n = jitter.incrementAndGet();
            sleep(n % param(ex, "every", 10) == 0 ? param(ex, "slow", 1500) : param(ex, "fast", 5));
            send(ex, 200, "ok");
        });
        s.createContext("/todo", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            String ct = ex.getRequestHeaders().getFirst("Content-Type");
            boolean ok = "Basic dXNlcjpwYXNzd29yZA==".equals(auth);
            if (!ok) { send(ex, 401, "unauthorized"); return; }
            if (!ex.getRequestMethod().equals("POST") || ct == null || !ct.startsWith("application/json") || body.length == 0) { send(ex, 400, "bad"); return; }
            sleep(param(ex, "ms", 0));
            send(ex, 201, new String(body, StandardCharsets.UTF_8));
        });
        s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        s.start();
        System.out.println("listening " + port);
    }
    static long param(HttpExchange ex, String name, long dflt) {
        String q = ex.getRequestURI().getQuery();
        if (q == null) return dflt;
        for (String kv : q.split("&")) { String[] p = kv.split("="); if (p[0].equals(name)) return Long.parseLong(p[1]); }
        return dflt;
    }
    static void sleep(long ms) { if (ms > 0) try { Thread.sleep(ms); } catch (InterruptedException e) {} }
    static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream o = ex.getResponseBody()) { o.write(b); }
    }
}
