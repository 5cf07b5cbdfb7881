import Foundation
import Logging
import PipelineCore
import Testing

@testable import PushlineLogging

@Suite struct JSONLogFieldTests {
    @Test("JSON log lines carry numbers and booleans as JSON numbers and booleans, the rest as text")
    func fields() throws {
        let fields: [String: Field] = [
            "accepted": Field(.stringConvertible(1200)), "rate": Field(.stringConvertible(61.5)),
            "dry": Field(.stringConvertible(true)),
            "step": Field("2:send"), "nan": Field(.stringConvertible(Double.nan)),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(fields), as: UTF8.self)
        #expect(json == #"{"accepted":1200,"dry":true,"nan":"nan","rate":61.5,"step":"2:send"}"#)
    }

    @Test("the progress rate counts what was sent (or planned), not what was held back")
    func sentRate() {
        var counts = ItemCounts()
        counts.accepted = 8
        counts.failed = 1
        counts.unknown = 1
        counts.duplicates = 30
        counts.skipped = 10
        let progress = StepProgress(stepIndex: 1, stepId: "send", counts: counts, total: nil, elapsed: 2)
        #expect(progress.sentRate == 5)
        #expect(progress.rate == 25)
    }
}
