-- The table of /db (docs/apps.md), as the lab loads it: ids 1 to 10000, item N named 'item N' with qty N mod 100.
create table item(id bigint primary key, name text not null, qty int not null, updated_at timestamptz not null default now());
insert into item(id, name, qty) select i, 'item ' || i, i % 100 from generate_series(1, 10000) as i;
analyze item;
