import Foundation

/// Two small migrations for tests of `migrate` that must not depend on the real schema.
let sampleMigrations = [
    "0001_first.sql": "CREATE TABLE sample (id INTEGER PRIMARY KEY, name TEXT NOT NULL);",
    "0002_second.sql": "CREATE TABLE child (id INTEGER PRIMARY KEY, sample_id INTEGER NOT NULL REFERENCES sample(id));",
]
