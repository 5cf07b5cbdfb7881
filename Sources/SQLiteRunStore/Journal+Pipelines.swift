import RunStore

/// Where each pipeline was last started from (`PipelineHome`).
extension Journal {
    package func pipelineHome(name: String) async throws(RunStoreError) -> PipelineHome? {
        try await withConnection { (connection) throws(RunStoreError) -> PipelineHome? in
            var found: PipelineHome?
            try connection.query(
                "SELECT path, content, declared, seen_at FROM pipelines WHERE name = ?1",
                bind: {
                    (statement) throws(RunStoreError) in try statement.bind(1, name)
                }
            ) { (row) throws(RunStoreError) in
                found = PipelineHome(
                    name: name, path: row.text(0) ?? "", contentDigest: row.text(1), declared: row.int64(2) != 0,
                    seenAt: row.double(3))
            }
            return found
        }
    }

    package func recordPipelineHome(_ home: PipelineHome) async throws(RunStoreError) {
        try await withConnection { (connection) throws(RunStoreError) in
            try connection.execute(
                """
                INSERT INTO pipelines (name, path, content, declared, seen_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (name) DO UPDATE SET path = excluded.path, content = excluded.content, declared = excluded.declared,
                    seen_at = excluded.seen_at
                """
            ) { (statement) throws(RunStoreError) in
                try statement.bind(1, home.name)
                try statement.bind(2, home.path)
                try statement.bind(3, home.contentDigest)
                try statement.bind(4, Int64(home.declared ? 1 : 0))
                try statement.bind(5, home.seenAt)
            }
        }
    }
}
