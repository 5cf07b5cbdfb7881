import Foundation
import PostgresRunStore
import RunStore
import Testing

@Suite("PostgresLocation: a postgres:// URL read as libpq reads it, the password never shown")
struct PostgresLocationTests {
    @Test("user, host, port, database and the defaults (port 5432, database = user, sslmode=prefer)")
    func parts() throws {
        let full = try PostgresLocation(
            "postgres://pushline:s3cret@db.internal:6432/journal?sslmode=require&connect_timeout=3",
            environment: [:])
        #expect(full.user == "pushline" && full.password == "s3cret" && full.host == "db.internal")
        #expect(full.port == 6432 && full.database == "journal" && full.tls == .require && full.connectTimeout == 3)
        #expect(full.description == "postgres://pushline@db.internal:6432/journal")

        let short = try PostgresLocation("postgresql://ops@10.0.0.7", environment: [:])
        #expect(short.port == 5432 && short.database == "ops" && short.tls == .prefer && short.password == nil)

        let ipv6 = try PostgresLocation("postgres://ops@[::1]:5433/db", environment: [:])
        #expect(ipv6.host == "::1" && ipv6.port == 5433)
        #expect(ipv6.description == "postgres://ops@[::1]:5433/db")

        let socket = try PostgresLocation("postgres://ops@/db?host=/var/run/postgresql", environment: [:])
        #expect(socket.socketDirectory == "/var/run/postgresql" && socket.host == nil)
    }

    @Test("the password comes from the URL (percent-decoded), else PGPASSWORD, and may be ${file:} or ${env:}")
    func passwords() throws {
        #expect(try PostgresLocation("postgres://u:p%40ss%2Fw@h/d", environment: [:]).password == "p@ss/w")
        #expect(
            try PostgresLocation("postgres://u@h/d", environment: ["PGPASSWORD": "from-env"]).password == "from-env")
        #expect(try PostgresLocation("postgres://u:url@h/d", environment: ["PGPASSWORD": "from-env"]).password == "url")

        let file = FileManager.default.temporaryDirectory.path + "/pg-secret-\(UUID().uuidString)"
        try "mounted-secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let mounted = try PostgresLocation("postgres://u:${file:\(file)}@h:5432/d", environment: [:])
        #expect(mounted.password == "mounted-secret", "the slashes of the path stay in the password reference")
        #expect(mounted.host == "h" && mounted.database == "d")
        #expect(
            try PostgresLocation("postgres://u@h/d", environment: ["PGPASSWORD": "${env:DB_PASS}", "DB_PASS": "e"])
                .password == "e")

        let missing = #expect(throws: RunStoreError.self) {
            try PostgresLocation("postgres://u:${env:NOPE}@h/d", environment: [:])
        }
        #expect(missing?.kind == .configuration)
    }

    @Test("malformed URLs are configuration errors that never repeat the password")
    func errors() {
        let cases = [
            "postgres://u:hunter2@h/d?sslmode=sometimes",
            "postgres://u:hunter2@h/d?password=hunter2",
            "postgres://u:hunter2@h/d?pool=3",
            "postgres://u:hunter2@h:99999/d",
            "postgres://:hunter2@h/d",
            "postgres://u:hunter2@/d",
            "mysql://u:hunter2@h/d",
            "postgres://u:hunter2@h/d?connect_timeout=0",
            // A raw '@' with '/' or '?' in the password: read naively, part of it would become the host and be printed.
            "postgres://u:hun@ter2/x@h/d",
            "postgres://u:hun@ter2?x@h/d",
            "postgres://u:hun@ter2@h/d",
        ]
        for url in cases {
            let error = #expect(throws: RunStoreError.self, "\(url)") { try PostgresLocation(url, environment: [:]) }
            #expect(error?.kind == .configuration)
            #expect(
                error?.message.contains("hunter2") == false && error?.message.contains("ter2") == false,
                "\(error?.message ?? "")")
        }
    }
}
