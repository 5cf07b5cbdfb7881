import BuiltinSteps
import Foundation
import PipelineCore
import Testing

@testable import PipelineTesting

/// `tables:` and `databases:`: a query step reads what the test gives instead of the app's database.
@Suite struct TablesTests {
    private static let pipeline = """
        version: 1
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: "${env:NH_HUB}" }
        steps:
          - id: due
            query: { database: "${env:APP_DB}", sql: "select name as \\"user\\", 'Hi ' || name as message from people where score > 1.5 and active order by name" }
          - id: notify
            send: { hub: main, for-each: "${steps.due.rows}", audience: "user:$(user)", properties: { message: "$(message)" } }

        """

    @Test func tablesBecomeADatabaseWithTheirValuesTyped() async throws {
        let folder = try ScratchFolder()
        try folder.write("due.yaml", Self.pipeline)
        let path = try folder.write(
            "due.test.yaml",
            """
            cases:
              - name: typed values
                devices:
                  - { installationId: ann, platform: apns, pushChannel: \(String(repeating: "A", count: 64)), tags: ["user:ann"], templates: { t: { body: '{"aps":{"alert":"$(message)"}}' } } }
                tables:
                  due:
                    people:
                      - { name: ann, score: 2.5, active: true }
                      - { name: bo, score: 10, active: false }
                      - { name: cy, score: 1, active: true }
                      - { name: "O'Neil \\"Dee\\"", active: true }
                expect:
                  outputs: { due.count: 1 }
                  received: [{ device: ann, values: { aps.alert: Hi ann } }]
              - name: a step that is not there
                tables: { overdue: { people: [{ name: x }] } }
              - name: a step without a database
                tables: { notify: { people: [{ name: x }] } }
            """)
        let diagnostics = DiagnosticCollector()
        let file = try #require(TestFileDecoder.load(path, diagnostics: diagnostics), "\(diagnostics.diagnostics)")
        let runner = TestRunner(steps: BuiltinSteps.registry(), environment: [:], parallelism: 2)
        let results = await runner.run(file.cases.map { (file, $0) })
        #expect(results[0].failures.isEmpty, "\(results[0].failures)")
        #expect(
            results[1].failures.map(\.message) == [
                "a database is given for step 'overdue', which the pipeline does not have"
            ])
        #expect(
            results[2].failures.map(\.message) == [
                "a database is given for step 'notify', which has no `database:` to replace"
            ])
    }
}
