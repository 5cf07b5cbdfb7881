import Foundation
import HubExpressions
import Testing

@testable import RenderBenchmark

/// The benchmark must measure real renders: each workload's output is the payload a device would get.
@Suite struct RenderWorkloadTests {
    @Test func theGenericWorkloadRendersTheSeedTutorialsPayload() throws {
        let workload = try RenderWorkload.generic()
        #expect(workload.template.render(workload.properties) == #"{"aps":{"alert":"Hello from Postman!"}}"#)
    }

    @Test func theRichWorkloadIsA2KBTemplateWith10ExpressionsThatRendersValidJSON() throws {
        let workload = try RenderWorkload.richAPNs()
        let size = workload.template.source.utf8.count
        #expect((1900...2300).contains(size), "template is \(size) bytes")
        #expect(workload.template.propertyNames.count == 10)
        let payload = workload.template.render(workload.properties)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        let aps = try #require(json["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["subtitle"] as? String == "For Ada Lovelace")
        #expect(aps["badge"] as? Int == 3)
        let article = try #require(json["article"] as? [String: Any])
        #expect(
            article["url"] as? String
                == "https%3A%2F%2Fnews.example.com%2Fmarkets%2F2026%2F11%2F22%2Frecord%20close%3Fref%3Dpush%26lang%3Den"
        )
        #expect(article["shareText"] as? String == "Read: Breaking: markets close at a record high")
        #expect(alert["title"] as? String == "Breaking: markets close at a record high on strong tech r...")
    }

    @Test func runRendersTheRequestedCountAndReturnsTheBytesProduced() throws {
        let workload = try RenderWorkload.generic()
        let one = workload.template.render(workload.properties).utf8.count
        #expect(workload.run(7) == 7 * one)
    }

    @Test func theMedianOfRoundsIsTheMiddleRate() {
        #expect(RenderMeasurement(rates: [3, 1, 2]).median == 2)
        #expect(RenderMeasurement(rates: [4, 1, 3, 2]).median == 2.5)
    }
}
