-- The run history: an index of results.json files (rebuilt from them by `stackbench history --rebuild`).
-- One statement set for SQLite and PostgreSQL alike: plain types, no dialect of either.
CREATE TABLE runs (
    id          VARCHAR(200) NOT NULL PRIMARY KEY,
    suite       VARCHAR(200) NOT NULL,
    started_at  VARCHAR(40)  NOT NULL,
    finished_at VARCHAR(40),
    status      VARCHAR(20)  NOT NULL,
    host        VARCHAR(255) NOT NULL,
    git_commit  VARCHAR(64),
    git_dirty   INTEGER,
    runner_jdk  VARCHAR(255),
    app_jdk     VARCHAR(255),
    kernel      VARCHAR(255),
    boot        VARCHAR(255),
    scale       DOUBLE PRECISION NOT NULL,
    folder      VARCHAR(1000) NOT NULL,
    indexed_at  VARCHAR(40)  NOT NULL
);

CREATE INDEX runs_by_suite ON runs (suite, host, started_at);

CREATE TABLE cells (
    run_id          VARCHAR(200) NOT NULL REFERENCES runs (id),
    config_key      VARCHAR(500) NOT NULL,
    app             VARCHAR(200) NOT NULL,
    endpoint        VARCHAR(200) NOT NULL,
    load_label      VARCHAR(200) NOT NULL,
    windows         INTEGER NOT NULL,
    processes       INTEGER NOT NULL,
    throughput      DOUBLE PRECISION,
    throughput_low  DOUBLE PRECISION,
    throughput_high DOUBLE PRECISION,
    p99             DOUBLE PRECISION,
    p99_low         DOUBLE PRECISION,
    p99_high        DOUBLE PRECISION,
    PRIMARY KEY (run_id, config_key)
);
