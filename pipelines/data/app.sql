-- The sample app database digest-from-database.yaml reads (pipelines/data/app.sqlite is made from this file:
-- sqlite3 pipelines/data/app.sqlite < pipelines/data/app.sql). Eight users; five opted in to the digest and have
-- unread items, one opted in with nothing unread, two did not opt in.
CREATE TABLE users (
    user_id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    digest_opt_in INTEGER NOT NULL,
    unread INTEGER NOT NULL
);
INSERT INTO users VALUES
    ('alice', 'Alice', 1, 3),
    ('bob', 'Bob', 1, 12),
    ('chen', 'Chen', 1, 1),
    ('dara', 'Dara', 0, 7),
    ('emeka', 'Emeka', 1, 0),
    ('farah', 'Farah "Fay"', 1, 2),
    ('gus', 'Gus', 0, 0),
    ('hana', 'Hana', 1, 5);
