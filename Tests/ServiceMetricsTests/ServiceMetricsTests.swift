import ServiceMetrics
import Testing

@Suite struct ServiceMetricsTests {
    @Test func countsRequestsByRouteAndStatusAndTimesThem() {
        let metrics = ServiceMetrics()
        metrics.request(route: "POST /api/register", status: 200, duration: .milliseconds(7))
        metrics.request(route: "POST /api/register", status: 200, duration: .milliseconds(30))
        metrics.request(route: "POST /api/register", status: 401, duration: .milliseconds(1))
        metrics.hubRequest(outcome: "2xx")
        let text = metrics.exposition()
        #expect(text.contains(#"pushline_http_requests_total{route="POST /api/register",status="200"} 2"#))
        #expect(text.contains(#"pushline_http_requests_total{route="POST /api/register",status="401"} 1"#))
        #expect(text.contains("# TYPE pushline_http_request_duration_seconds histogram"))
        #expect(
            text.contains(#"pushline_http_request_duration_seconds_bucket{route="POST /api/register",le="0.01"} 2"#))
        #expect(text.contains(#"pushline_http_request_duration_seconds_count{route="POST /api/register"} 3"#))
        #expect(text.contains(#"pushline_hub_requests_total{outcome="2xx"} 1"#))
    }
}
