import Logging
import Testing

@testable import PluginStep

@Suite struct PluginStderrTests {
    @Test(
        "stderr lines that say they are warnings or errors are logged so, the default level shows them; the rest is info",
        arguments: [
            ("WARNING:root:page 3 was empty", Logger.Level.warning),
            ("[warn] retrying page 2", .warning),
            ("2024-05-01T10:00:00Z WARN slow answer", .warning),
            ("DeprecationWarning: utcnow() is deprecated", .warning),
            ("Error: connect ECONNREFUSED 127.0.0.1:8000", .error),
            ("Traceback (most recent call last):", .error),
            ("2024-05-01 10:00:00,123 ERROR crm: 401", .error),
            ("fetching page 1 of 3", .info),
            ("0 errors so far", .info),
            ("read 2 members", .info),
        ])
    func levels(line: String, level: Logger.Level) {
        #expect(PluginStderr.level(of: line) == level)
    }
}
