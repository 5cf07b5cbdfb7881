import PostgresNIO
import RunStore

/// Where each pipeline was last started from (`PipelineHome`).
extension PostgresStore {
    package func pipelineHome(name: String) async throws(RunStoreError) -> PipelineHome? {
        try await withConnection("reading a pipeline") { connection in
            var found: PipelineHome?
            let rows = try await connection.query(
                """
                SELECT path, content, declared, seen_at FROM pushline.pipelines WHERE name = \(StoredText.encode(name))
                """, logger: self.logger)
            for try await row in rows {
                let (path, content, declared, seenAt) = try row.decode((String, String?, Bool, Double).self)
                found = PipelineHome(
                    name: name, path: StoredText.decode(path), contentDigest: content, declared: declared,
                    seenAt: seenAt)
            }
            return found
        }
    }

    package func recordPipelineHome(_ home: PipelineHome) async throws(RunStoreError) {
        try await withConnection("recording a pipeline") { connection in
            try await connection.query(
                """
                INSERT INTO pushline.pipelines (name, path, content, declared, seen_at)
                VALUES (\(StoredText.encode(home.name)), \(StoredText.encode(home.path)), \(home.contentDigest), \(home.declared), \(home.seenAt))
                ON CONFLICT (name) DO UPDATE SET path = excluded.path, content = excluded.content, declared = excluded.declared,
                    seen_at = excluded.seen_at
                """, logger: self.logger)
        }
    }
}
