-- The lab's default database (suite key database:, when it names no schema): one table of 10,000 rows that the
-- built-in apps' db endpoints read by key and update in a small transaction. Loaded by the superuser with psql into
-- the database stackbench before the first cell; the apps' role (stackbench) is granted what is created here.
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;

CREATE TABLE item (
    id         bigint PRIMARY KEY,
    name       text NOT NULL,
    qty        int NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO item (id, name, qty)
SELECT i, 'item-' || i, (i % 100)
FROM generate_series(1, 10000) AS i;

ANALYZE item;
