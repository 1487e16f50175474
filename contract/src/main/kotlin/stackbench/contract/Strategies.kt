package stackbench.contract

/** A way of running an endpoint's work, named in the URL path: `/cpu/{strategy}`, `/io/{strategy}`... */
sealed interface Strategy {
    val id: String
    val description: String
}

/** Where `GET /cpu/{strategy}?limit=N[&batch=B]` runs the prime computation. */
enum class CpuStrategy(override val id: String, override val description: String) : Strategy {
    DIRECT("direct", "on the request thread (the event loop on WebFlux)"),
    SUSPEND("suspend", "a suspend controller; the work runs on the controller coroutine"),
    DISPATCHERS_DEFAULT("dispatchers-default", "withContext(Dispatchers.Default)"),
    COMPLETABLE_FUTURE("completable-future", "CompletableFuture on a fixed pool of available-processors threads"),
    MONO("mono", "Mono.fromCallable, no scheduler"),
    MONO_PARALLEL("mono-parallel", "Mono.fromCallable(...).subscribeOn(Schedulers.parallel())"),
    COOP("coop", "suspend on Dispatchers.Default, yield() every `batch` numbers"),
    SEMAPHORE("semaphore", "on the request thread, guarded by a Semaphore (permits = processors by default)");

    companion object {
        fun byId(id: String): CpuStrategy? = entries.firstOrNull { it.id == id }
    }
}

/** Where `GET /io/{strategy}?delay=ms` sleeps (simulated blocking I/O) or waits on a timer. */
enum class IoStrategy(override val id: String, override val description: String, val blocksAThread: Boolean) : Strategy {
    BLOCKING("blocking", "Thread.sleep where the request runs: platform thread, virtual thread, or the event loop", true),
    COMPLETABLE_FUTURE("completable-future", "Thread.sleep in CompletableFuture.supplyAsync on a cached pool", true),
    DISPATCHERS_IO("dispatchers-io", "Thread.sleep in withContext(Dispatchers.IO)", true),
    BOUNDED_ELASTIC("bounded-elastic", "Thread.sleep in Mono.fromCallable on Schedulers.boundedElastic()", true),
    CACHED_SCHEDULER("cached-scheduler", "Thread.sleep in Mono.fromCallable on Schedulers.fromExecutor(cached pool)", true),
    SUSPEND_DELAY("suspend-delay", "kotlinx.coroutines delay(): a timer, no thread held", false),
    MONO_DELAY("mono-delay", "Mono.delay: a timer, no thread held", false);

    companion object {
        fun byId(id: String): IoStrategy? = entries.firstOrNull { it.id == id }
    }
}

/** How `GET /downstream/{client}?delay=ms` calls the downstream service. */
enum class DownstreamClient(override val id: String, override val description: String) : Strategy {
    SYNC_JAVA("sync-java", "java.net.http.HttpClient.send, blocking the request thread"),
    CF_JAVA("cf-java", "java.net.http.HttpClient.sendAsync, returned as a CompletableFuture"),
    CF_APACHE("cf-apache", "Apache HttpClient 5 async, returned as a CompletableFuture"),
    MONO_JAVA("mono-java", "Mono.fromFuture over java.net.http.HttpClient.sendAsync"),
    WEBCLIENT("webclient", "Spring WebClient (Reactor Netty), returned as a Mono"),
    MONO_APACHE("mono-apache", "Mono.fromCompletionStage over Apache HttpClient 5 async"),
    REST_CLIENT("rest-client", "Spring RestClient, blocking the request thread"),
    SUSPEND_WEBCLIENT("suspend-webclient", "WebClient awaited from a suspend controller");

    companion object {
        fun byId(id: String): DownstreamClient? = entries.firstOrNull { it.id == id }
    }
}

/**
 * How `GET /db/{strategy}` reaches the database: the same table and statements ([DbOp]), by a blocking driver on the
 * request thread, a blocking driver offloaded to a scheduler, or a reactive driver.
 */
enum class DbStrategy(override val id: String, override val description: String) : Strategy {
    JDBC("jdbc", "JDBC with HikariCP where the request runs: platform thread, virtual thread, or the event loop on WebFlux"),
    R2DBC("r2dbc", "R2DBC (r2dbc-postgresql) with r2dbc-pool, returned as a Mono"),
    JDBC_OFFLOAD("jdbc-offload", "JDBC with HikariCP in Mono.fromCallable on Schedulers.boundedElastic()");

    companion object {
        fun byId(id: String): DbStrategy? = entries.firstOrNull { it.id == id }
    }
}
